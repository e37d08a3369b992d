/**
 * The shapes of the server's answers as tests read them: `res.json<Page<Row>>()` types a list
 * page, `res.json<ErrorBody>()` an error. A `Row` is a record whose fields a test checks one by
 * one; where a test relies on a field's type, give the record its own type instead.
 */
export type Row = Record<string, unknown>;

/** a list page of the CRUD routes */
export interface Page<T = Row> {
  content: T[];
  totalElements: number;
}

/** every error answer */
export interface ErrorBody {
  status: number;
  message: string;
  timestamp: string;
}

/** a record with its id, as POST answers it */
export type Created<T = Row> = T & { id: number };
