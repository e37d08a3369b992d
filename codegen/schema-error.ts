/** A problem in one schema file: the file, the JSON path inside it and what is wrong. */
export class SchemaError extends Error {
  constructor(
    public file: string,
    public path: string,
    public problem: string,
  ) {
    super(`${file}: ${path || '/'}: ${problem}`);
    this.name = 'SchemaError';
  }
}
