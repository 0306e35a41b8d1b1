import { EXPLORE_SORTS, type ExploreSort } from '@riffscribe/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../api/endpoints';
import { LessonList } from '../features/explore/LessonList';
import { Icon } from '../ui/Icon';

const PAGE_SIZE = 12;
const SORT_LABELS: Record<ExploreSort, string> = {
  newest: 'Newest',
  rating: 'Top rated',
  opens: 'Most opened',
};

/** /explore: lessons people shared, as cards, with sorting and paging. */
export function ExplorePage() {
  const [params, setParams] = useSearchParams();
  const sortParam = params.get('sort');
  const sort: ExploreSort = EXPLORE_SORTS.find((s) => s === sortParam) ?? 'newest';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const sortId = useId();
  const list = useQuery({
    queryKey: ['explore', sort, page],
    queryFn: () => api.explore(sort, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  const go = (next: { sort?: ExploreSort; page?: number }) => {
    const p = new URLSearchParams(params);
    p.set('sort', next.sort ?? sort);
    p.set('page', String(next.page ?? 1));
    setParams(p);
  };

  return (
    <main className="main page" id="main">
      <header className="page-head">
        <div>
          <p className="eyebrow">Explore</p>
          <h1>Available lessons</h1>
          <p className="muted">
            Tab lessons shared by the Riffscribe community. Open one to play along.
          </p>
        </div>
        <div className="field inline">
          <label htmlFor={sortId}>Sort by</label>
          <select
            id={sortId}
            value={sort}
            onChange={(event) => {
              go({ sort: event.target.value as ExploreSort });
            }}
          >
            {EXPLORE_SORTS.map((s) => (
              <option key={s} value={s}>
                {SORT_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
      </header>

      <LessonList
        list={list}
        page={page}
        pageSize={PAGE_SIZE}
        onPage={(p) => {
          go({ page: p });
        }}
        empty={
          <div className="empty-state">
            <span className="empty-icon" aria-hidden="true">
              <Icon name="globe" size={28} />
            </span>
            <h2>No shared lessons yet</h2>
            <p className="muted">
              Be the first: upload a video, then share the finished lesson to Explore from My
              videos.
            </p>
            <Link className="button" to="/#upload">
              Upload a video
            </Link>
          </div>
        }
      />
    </main>
  );
}
