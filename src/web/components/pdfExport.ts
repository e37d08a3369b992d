/**
 * A4 PDF export of a view: the element is drawn to a canvas and laid on A4 portrait pages
 * whose content area is 170 mm × 265 mm (20 mm side margins, 16 mm top and bottom). A view
 * taller than one content area continues on the next page. The drawing libraries are loaded
 * only when a user exports, so no screen pays for them up front.
 */

export const A4 = { width: 210, height: 297 } as const;
export const CONTENT_AREA = { width: 170, height: 265 } as const;
export const MARGIN = { x: (A4.width - CONTENT_AREA.width) / 2, y: (A4.height - CONTENT_AREA.height) / 2 } as const;

export interface PageSlice {
  /** first canvas row (px) of this page */
  sourceY: number;
  /** canvas rows (px) on this page */
  sourceHeight: number;
  /** height on the page in mm */
  heightMm: number;
}

/**
 * How a canvas of the given size is cut into pages: scaled to the content width, each page
 * takes at most one content-area height. A zero-sized canvas gives no pages.
 */
export function pageSlices(canvasWidth: number, canvasHeight: number): PageSlice[] {
  if (!(canvasWidth > 0) || !(canvasHeight > 0)) return [];
  const pxPerMm = canvasWidth / CONTENT_AREA.width;
  const pageRows = Math.floor(CONTENT_AREA.height * pxPerMm);
  const slices: PageSlice[] = [];
  for (let y = 0; y < canvasHeight; y += pageRows) {
    const rows = Math.min(pageRows, canvasHeight - y);
    slices.push({ sourceY: y, sourceHeight: rows, heightMm: rows / pxPerMm });
  }
  return slices;
}

/** The file name of an export: the title with characters that file systems refuse replaced, plus .pdf. */
export function pdfFileName(title: string): string {
  const safe = title.replace(/[\\/:*?"<>|\s]+/g, '_').replace(/^_+|_+$/g, '');
  return `${safe || '导出'}.pdf`;
}

/** Draws the element and answers the PDF as a Blob (A4 portrait, 170 × 265 mm content areas). */
export async function elementToPdf(element: HTMLElement): Promise<Blob> {
  const [{ domToCanvas }, { jsPDF }] = await Promise.all([import('modern-screenshot'), import('jspdf')]);
  const canvas = await domToCanvas(element, { scale: 2, backgroundColor: '#ffffff' });
  const slices = pageSlices(canvas.width, canvas.height);
  const pdf = new jsPDF({ orientation: 'portrait', unit: 'mm', format: 'a4', compress: true });
  slices.forEach((slice, i) => {
    if (i > 0) pdf.addPage('a4', 'portrait');
    const part = document.createElement('canvas');
    part.width = canvas.width;
    part.height = slice.sourceHeight;
    const ctx = part.getContext('2d');
    if (!ctx) throw new Error('浏览器不支持画布，无法导出PDF');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, part.width, part.height);
    ctx.drawImage(canvas, 0, slice.sourceY, canvas.width, slice.sourceHeight, 0, 0, canvas.width, slice.sourceHeight);
    pdf.addImage(part.toDataURL('image/jpeg', 0.92), 'JPEG', MARGIN.x, MARGIN.y, CONTENT_AREA.width, slice.heightMm);
  });
  return pdf.output('blob');
}

/** Exports the element as `<title>.pdf` through the browser's download. */
export async function exportElementToPdf(element: HTMLElement, title: string): Promise<void> {
  const blob = await elementToPdf(element);
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = pdfFileName(title);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
