/** A chosen region: province, city and county codes (empty when not chosen). */
export interface AreaValue {
  province: string;
  city: string;
  county: string;
}
