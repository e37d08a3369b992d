/**
 * The filter bar's placeholder (schema/FilterBarSkeleton.tsx) follows the filters: one place per
 * filter, in their order, with each kind's width; the filters themselves come from the same list
 * (filterItems). Where they stand in a browser, before and after, is checked by
 * tests/e2e/filter-placeholder.test.ts.
 */
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { isValidElement } from 'react';
import { resourceByName } from '../../src/generated/resources.ts';
import { filterInputs, filterItems } from '../../src/web/staff/schema/filters.tsx';
import { FilterBarSkeleton } from '../../src/web/staff/schema/FilterBarSkeleton.tsx';
import { DATE_FIELD_WIDTH, FILTER_FIELD_WIDTH } from '../../src/web/staff/schema/filterWidths.ts';

const staff = resourceByName.staff;

describe('filter placeholder', () => {
  it('lists the filters in order with their kinds; the filters are made from the same list', () => {
    const items = filterItems(staff);
    expect(items[0]).toMatchObject({ source: 'blurry', kind: 'search', label: '请输入搜索内容' });
    const kinds = Object.fromEntries(items.map((i) => [i.source, i.kind]));
    expect(kinds).toMatchObject({ name: 'text', orgId: 'picker', deptId: 'picker', entryDate: 'range', createTime: 'range' });
    expect(items.map((i) => i.source)).toEqual(['blurry', ...staff.fields.filter((f) => f.filter).map((f) => f.name)]);
    const inputs = filterInputs(items);
    expect(inputs.map((el) => (isValidElement(el) ? el.key : null))).toEqual(items.map((i) => i.source));
    // a filter the route fixes has neither an input nor a place
    expect(filterItems(staff, ['deptId']).some((i) => i.source === 'deptId')).toBe(false);
  });

  it('shows one place per filter with its label and width, hidden from assistive technology', () => {
    const items = filterItems(staff);
    const { container } = render(<FilterBarSkeleton items={items} />);
    const bar = container.querySelector('.filter-bar-skeleton')!;
    expect(bar.getAttribute('aria-hidden')).toBe('true');
    const places = Array.from(bar.querySelectorAll<HTMLElement>('.filter-field'));
    expect(places.map((p) => p.dataset.source)).toEqual(items.map((i) => i.source));
    const box = (source: string) => places.find((p) => p.dataset.source === source)!.querySelectorAll<HTMLElement>('.filter-skeleton-box');
    expect(box('blurry')[0].style.width).toBe(`${FILTER_FIELD_WIDTH.search}px`);
    expect(box('blurry')[0].textContent).toBe('请输入搜索内容');
    expect(box('name')[0].style.width).toBe('260px');
    expect(box('sex')[0].style.width).toBe('160px');
    expect(box('orgId')[0].style.width).toBe('180px');
    const range = box('entryDate');
    expect(Array.from(range, (b) => [b.textContent, b.style.width])).toEqual([
      ['入职日期(开始)', `${DATE_FIELD_WIDTH}px`],
      ['入职日期(结束)', `${DATE_FIELD_WIDTH}px`],
    ]);
    expect(places.find((p) => p.dataset.source === 'entryDate')!.textContent).toContain('至');
    // no inputs: nothing to type into or to reach with the keyboard until the filters come
    expect(bar.querySelectorAll('input, button, [tabindex]')).toHaveLength(0);
  });
});
