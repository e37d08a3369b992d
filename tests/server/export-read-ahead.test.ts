import { describe, expect, it, vi } from 'vitest';
import type { Readable } from 'node:stream';
import { exportStream } from '../../src/server/crud/sheets/spreadsheet.ts';
import { testApps } from './helpers.ts';
import { exportParams as params, spec, withExportRows } from './export-rows.ts';
import { elapse } from '../support/wait.ts';

// The export's reader, watched: each read is held back a little (so a read sent ahead is still
// running when the export stops), and each close records how many reads were still running.
const watch = vi.hoisted(() => ({ reads: 0, inFlightAtClose: [] as number[] }));
vi.mock('../../src/server/db/index.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/server/db/index.ts')>();
  return {
    ...real,
    rowArrayReader: async (database: Parameters<typeof real.rowArrayReader>[0]) => {
      const reader = await real.rowArrayReader(database);
      let inFlight = 0;
      return {
        read: async (query: Parameters<typeof reader.read>[0]) => {
          watch.reads++;
          inFlight++;
          try {
            const rows = await reader.read(query);
            await elapse(30); // a slower database: the read-ahead has a read in flight to overlap
            return rows;
          } finally {
            inFlight--;
          }
        },
        close: () => {
          watch.inFlightAtClose.push(inFlight);
          reader.close();
        },
      };
    },
  };
});

const ROWS = 4_500;

async function allBytes(stream: Readable): Promise<number> {
  let n = 0;
  for await (const b of stream) n += (b as Buffer).length;
  return n;
}

describe.each(testApps())('the export reading ahead on %s', (name, start) => {
  const app = withExportRows(start, ROWS, '预读');

  for (const sort of ['id,desc', 'title,asc']) {
    it(`sends the next read before the current batch is written only on PostgreSQL (sort ${sort})`, async () => {
      watch.reads = 0;
      // told after each batch is written: reads sent by then, beyond the batches written
      const ahead: number[] = [];
      const onRows = (written: number) => ahead.push(watch.reads - Math.ceil(written / 1000));
      await allBytes(exportStream(app().app.database, spec, params({ sort }), () => undefined, onRows));
      // 4,500 rows: four full batches, each with the next read already sent, then the last one
      expect(ahead).toEqual(name === 'postgres' ? [1, 1, 1, 1, 0] : [0, 0, 0, 0, 0]);
    });

    it(`an export stopped early gives its connection back only after the read sent ahead has settled (sort ${sort})`, async () => {
      watch.inFlightAtClose.length = 0;
      for (let i = 0; i < 3; i++) {
        // stopped once its first batch is written (the zip's first bytes come before any row is read)
        let stop = () => undefined as void;
        const stream = exportStream(
          app().app.database,
          spec,
          params({ sort }),
          () => undefined,
          () => stop(),
        );
        stop = () => stream.destroy();
        stream.resume();
        await new Promise((resolve) => stream.once('close', resolve));
      }
      await vi.waitFor(() => expect(watch.inFlightAtClose).toHaveLength(3));
      expect(watch.inFlightAtClose).toEqual([0, 0, 0]);
    });
  }
});
