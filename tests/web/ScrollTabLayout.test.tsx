import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { currentSection, ScrollTabLayout } from '../../src/web/components/ScrollTabLayout.tsx';

describe('scroll-tab layout', () => {
  it('marks the last section whose top passed the reading line', () => {
    const tops = [
      { id: 'a', top: -500 },
      { id: 'b', top: 80 },
      { id: 'c', top: 700 },
    ];
    expect(currentSection(tops, 128)).toBe('b');
    expect(currentSection(tops, 0)).toBe('a');
    expect(currentSection([{ id: 'a', top: 300 }], 128)).toBe('a');
    expect(currentSection([], 128)).toBeUndefined();
  });

  it('renders a tab per section and jumps to the section of the clicked tab', () => {
    const scrolled: string[] = [];
    // jsdom has no scrollIntoView
    const original = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'scrollIntoView');
    HTMLElement.prototype.scrollIntoView = vi.fn(function (this: HTMLElement) {
      scrolled.push(this.id);
    });
    render(
      <ScrollTabLayout
        sections={[
          { id: 'basic', title: '基本信息', content: <p>甲</p> },
          { id: 'work', title: '工作信息', content: <p>乙</p> },
        ]}
      />,
    );
    const nav = screen.getAllByRole('tablist', { name: '页面导航' })[0];
    expect(
      within(nav)
        .getAllByRole('tab')
        .map((t) => t.textContent),
    ).toEqual(['基本信息', '工作信息']);
    expect(screen.getByRole('region', { name: '工作信息' }).textContent).toContain('乙');
    fireEvent.click(within(nav).getByRole('tab', { name: '工作信息' }));
    expect(scrolled).toEqual(['section-work']);
    expect(within(nav).getByRole('tab', { name: '工作信息' }).getAttribute('aria-selected')).toBe('true');
    if (original) Object.defineProperty(HTMLElement.prototype, 'scrollIntoView', original);
    else delete (HTMLElement.prototype as Partial<HTMLElement>).scrollIntoView;
  });
});
