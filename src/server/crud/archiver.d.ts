/** The part of archiver's API the xlsx writer uses (the package ships no types). */
declare module 'archiver' {
  import type { Readable, Transform } from 'node:stream';

  interface ArchiverOptions {
    zlib?: { level?: number };
  }

  interface Archiver extends Transform {
    append(source: Readable | Buffer | string, data: { name: string }): this;
    finalize(): Promise<void>;
    abort(): this;
  }

  function archiver(format: 'zip', options?: ArchiverOptions): Archiver;
  export default archiver;
}
