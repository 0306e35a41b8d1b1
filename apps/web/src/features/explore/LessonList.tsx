import type { ExploreItem, Paged } from '@riffscribe/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { pageCount } from './format';
import { LessonCard } from './LessonCard';
import { Pager } from './Pager';

/**
 * A page of lesson cards (Explore, a personal page): loading, a failure, the page's own empty
 * state, or the count, the cards and the pager.
 */
export function LessonList(props: {
  list: UseQueryResult<Paged<ExploreItem>>;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  /** What shows when there is no lesson. */
  empty: ReactNode;
}) {
  const { list, page } = props;
  if (list.isPending) {
    return (
      <p className="muted" role="status">
        Loading lessons…
      </p>
    );
  }
  if (list.isError) {
    return (
      <p className="form-error" role="alert">
        The lessons could not be loaded. Please refresh the page.
      </p>
    );
  }
  if (list.data.items.length === 0) return props.empty;
  return (
    <>
      <p className="muted small" aria-live="polite">
        {list.data.total} {list.data.total === 1 ? 'lesson' : 'lessons'}
      </p>
      <ul className="card-grid">
        {list.data.items.map((item) => (
          <LessonCard key={item.jobId} item={item} />
        ))}
      </ul>
      <Pager page={page} pages={pageCount(list.data.total, props.pageSize)} onPage={props.onPage} />
    </>
  );
}
