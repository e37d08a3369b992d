import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Watermark, WATERMARK_COLOR, watermarkTile } from '../../src/web/components/Watermark.tsx';

describe('watermark', () => {
  it('tiles the text in rgba(180,180,180,0.3), escaped', () => {
    expect(WATERMARK_COLOR).toBe('rgba(180,180,180,0.3)');
    const tile = decodeURIComponent(watermarkTile('[张三] <script>'));
    expect(tile).toContain('fill="rgba(180,180,180,0.3)"');
    expect(tile).toContain('[张三] &#60;script&#62;');
    expect(tile).not.toContain('<script>');
  });

  it('covers its children without catching clicks; no text, no overlay', () => {
    const { rerender } = render(
      <Watermark text="[郑州经销商]">
        <p>内容</p>
      </Watermark>,
    );
    const overlay = screen.getByTestId('watermark');
    expect(getComputedStyle(overlay).pointerEvents).toBe('none');
    expect(screen.getByText('内容')).toBeTruthy();
    rerender(
      <Watermark text="">
        <p>内容</p>
      </Watermark>,
    );
    expect(screen.queryByTestId('watermark')).toBeNull();
  });
});
