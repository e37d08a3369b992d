/**
 * The grid's body, rendering the first FIRST_ROWS rows only until the console's first screen is
 * up (shell/startup.ts: painted, then a moment to spare), and every row after that. The first
 * list of a visit then shows the rows a window holds without waiting for the ones below them:
 * a row (checkbox, cells, status radios, action buttons with their tooltips) is most of what the
 * console renders before its first paint. Lists opened later render all their rows at once.
 */
import { forwardRef } from 'react';
import { DatagridBody, type DatagridBodyProps } from 'react-admin';
import { useConsoleStarted } from '../shell/startup.ts';

/**
 * The rows an 800-pixel-high window shows of a list under the console's header, filters and
 * toolbar (the rows are 57-90 px high); on a taller window the rows below appear with the rest.
 */
export const FIRST_ROWS = 8;

export const FirstRowsBody = forwardRef<HTMLTableSectionElement, DatagridBodyProps>(function FirstRowsBody(props, ref) {
  const started = useConsoleStarted();
  const data = started || !props.data ? props.data : props.data.slice(0, FIRST_ROWS);
  return <DatagridBody ref={ref} {...props} data={data} />;
});
