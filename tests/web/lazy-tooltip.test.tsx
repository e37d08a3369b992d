/**
 * LazyTooltip (list row actions, header and sidebar buttons): the child renders alone, with the
 * accessible name the tooltip's title gives it, until it is pointed at, focused or touched; then
 * MUI's Tooltip mounts beside the same element and opens and closes as it always did.
 */
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import IconButton from '@mui/material/IconButton';
import { LazyTooltip } from '../../src/web/components/LazyTooltip.tsx';
import { elapse } from '../support/wait.ts';

const mounted = () => document.querySelector('[data-mui-internal-clone-element]');

describe('LazyTooltip', () => {
  it('before it is needed: the child alone, named by the title, no tooltip behind it', () => {
    render(
      <LazyTooltip title="删除">
        <IconButton>x</IconButton>
      </LazyTooltip>,
    );
    expect(screen.getByRole('button', { name: '删除' })).toBeTruthy();
    expect(screen.queryByRole('tooltip')).toBeNull();
    expect(mounted()).toBeNull();
  });

  it("the child's own name wins, as with the Tooltip; describeChild gives the title attribute instead", () => {
    render(
      <>
        <LazyTooltip title="查看">
          <IconButton aria-label="查看记录">x</IconButton>
        </LazyTooltip>
        <LazyTooltip title="历史记录" describeChild>
          <IconButton aria-label="历史">y</IconButton>
        </LazyTooltip>
      </>,
    );
    expect(screen.getByRole('button', { name: '查看记录' })).toBeTruthy();
    const described = screen.getByRole('button', { name: '历史' });
    expect(described.getAttribute('title')).toBe('历史记录');
  });

  it('pointed at: the tooltip opens with its title, and closes when the pointer leaves', async () => {
    let clicks = 0;
    render(
      <LazyTooltip title="删除">
        <IconButton aria-label="删除" onClick={() => clicks++}>
          x
        </IconButton>
      </LazyTooltip>,
    );
    const button = screen.getByRole('button', { name: '删除' });
    fireEvent.mouseOver(button);
    await waitFor(() => expect(screen.getByRole('tooltip').textContent).toBe('删除'));
    expect(mounted()).toBe(button);
    fireEvent.click(button);
    expect(clicks).toBe(1);
    fireEvent.mouseLeave(button);
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
    // still the same button, with its name
    expect(screen.getByRole('button', { name: '删除' })).toBe(button);
  });

  it('a first touch mounts the tooltip without showing it for the tap that follows', async () => {
    render(
      <LazyTooltip title="编辑">
        <IconButton aria-label="编辑">x</IconButton>
      </LazyTooltip>,
    );
    const button = screen.getByRole('button', { name: '编辑' });
    fireEvent.touchStart(button);
    expect(mounted()).toBe(button);
    // the mouse events a browser sends after a tap
    fireEvent.mouseOver(button);
    await act(() => elapse(300)); // longer than the tooltip's enter delay: none opens after a tap
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it("the child's own handlers still run when it wakes the tooltip", () => {
    const seen: string[] = [];
    render(
      <LazyTooltip title="列设置">
        <IconButton aria-label="列设置" onFocus={() => seen.push('focus')} onMouseOver={() => seen.push('over')}>
          x
        </IconButton>
      </LazyTooltip>,
    );
    const button = screen.getByRole('button', { name: '列设置' });
    act(() => button.focus());
    expect(seen[0]).toBe('focus');
    // the same element, still focused: the tooltip mounted beside it, not around it
    expect(mounted()).toBe(button);
    expect(document.activeElement).toBe(button);
    fireEvent.mouseOver(button);
    expect(seen).toEqual(['focus', 'over']);
  });
});
