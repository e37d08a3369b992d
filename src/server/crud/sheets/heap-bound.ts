/**
 * Keeps a long bulk write's garbage from piling up in the heap (what an import of 100,000 rows
 * makes: rows, key lists, revision and key parameters of every batch).
 *
 * Measured on an import of 100,000 roster rows (two pinyin-marked fields): the heap grew by about
 * 18 MB every 10,000 rows while the rows were written, to a peak RSS of 460-530 MB, although what
 * the import holds (its records) stays about 85 MB: the batches' data lives across a few batches,
 * is promoted to the old generation, and V8 postpones the full collection that would free it
 * until the heap reaches its next limit. A full collection with every 10,000 rows kept the heap at
 * 85 MB and the peak RSS at 290 MB. Here a full collection runs only when the heap has grown by
 * GROWTH_BYTES since the last one (a few times per 100,000 rows), when the server runs with
 * --expose-gc (`npm start` does; without it nothing happens).
 */
import { getHeapStatistics } from 'node:v8';

/** growth of the used heap that asks for a full collection */
const GROWTH_BYTES = 32 * 1024 * 1024;

const gc = (globalThis as { gc?: () => void }).gc;

export class HeapBound {
  private floor = getHeapStatistics().used_heap_size;

  /** After a batch: collects when the heap grew by GROWTH_BYTES since the start or the last collection. */
  check(): void {
    if (!gc) return;
    if (getHeapStatistics().used_heap_size - this.floor < GROWTH_BYTES) return;
    gc();
    this.floor = getHeapStatistics().used_heap_size;
  }
}
