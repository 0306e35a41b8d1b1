import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { api } from '../api/endpoints';
import { ApiRequestError } from '../api/session';
import { LessonList } from '../features/explore/LessonList';
import { Icon } from '../ui/Icon';

const PAGE_SIZE = 12;

/**
 * /u/:handle, a Pro user's personal page (spec: "share to personal page"): the lessons they
 * shared to Personal, for anyone with the link; opening one costs a view credit as from Explore.
 */
export function PersonalPage() {
  const { handle = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const list = useQuery({
    queryKey: ['personal', handle, page],
    queryFn: () => api.personalPage(handle, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
    retry: false,
  });
  useEffect(() => {
    const before = document.title;
    document.title = `@${handle} · Riffscribe`;
    return () => {
      document.title = before;
    };
  }, [handle]);
  const missing = list.error instanceof ApiRequestError && list.error.status === 404;

  return (
    <main className="main page" id="main">
      <header className="page-head">
        <div>
          <p className="eyebrow">Personal page</p>
          <h1>Lessons by @{handle}</h1>
          <p className="muted">
            Tab lessons @{handle} shares with whoever has this page&apos;s link.
          </p>
        </div>
      </header>
      {missing ? (
        <div className="empty-state" role="alert">
          <h2>No such page</h2>
          <p className="muted">Nobody called @{handle} has a personal page here.</p>
          <Link className="button" to="/explore">
            Explore lessons
          </Link>
        </div>
      ) : (
        <LessonList
          list={list}
          page={page}
          pageSize={PAGE_SIZE}
          onPage={(p) => {
            setParams(new URLSearchParams({ page: String(p) }));
          }}
          empty={
            <div className="empty-state">
              <span className="empty-icon" aria-hidden="true">
                <Icon name="globe" size={28} />
              </span>
              <h2>Nothing shared here yet</h2>
              <p className="muted">@{handle} has not shared a lesson to their personal page.</p>
              <Link className="button" to="/explore">
                Explore lessons
              </Link>
            </div>
          }
        />
      )}
    </main>
  );
}
