import { Icon } from '../../ui/Icon';

/** Previous / next paging with 'Page x of y'. */
export function Pager(props: { page: number; pages: number; onPage: (page: number) => void }) {
  const { page, pages, onPage } = props;
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label="Pages">
      <button
        type="button"
        className="button ghost small"
        disabled={page <= 1}
        onClick={() => {
          onPage(page - 1);
        }}
      >
        <Icon name="arrowLeft" size={16} /> Previous
      </button>
      <span className="pager-text" aria-current="page">
        Page {page} of {pages}
      </span>
      <button
        type="button"
        className="button ghost small"
        disabled={page >= pages}
        onClick={() => {
          onPage(page + 1);
        }}
      >
        Next <Icon name="arrowRight" size={16} />
      </button>
    </nav>
  );
}
