/** Hash navigation of the applicant pages (a new history entry, so back works on phones). */
export function go(route: string): void {
  window.location.hash = route;
}
