import { useState } from 'react';
import { api } from '../api.js';
import { useTitle } from '../app.js';
import { Link } from '../router.js';
import { ErrorMessage, Field, Loading, formatDate, formatMinutes, Time, useLoad } from '../ui.js';

const PAGE = 20;

export function ReportList() {
  useTitle('Reports');
  const templates = useLoad(() => api.templates(), []);
  const [templateId, setTemplateId] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [offset, setOffset] = useState(0);
  const loaded = useLoad(
    () => api.reports({ templateId: templateId || undefined, from: from || undefined, to: to || undefined, limit: PAGE, offset }),
    [templateId, from, to, offset],
  );
  const total = loaded.data?.total ?? 0;
  return (
    <>
      <div className="title-row">
        <h1>Reports</h1>
        <Link to="/reports/new" className="button">
          New report
        </Link>
      </div>
      <form
        className="filters"
        role="search"
        aria-label="Filter reports"
        onSubmit={(e) => {
          e.preventDefault();
        }}
      >
        <Field label="Template">
          {(id) => (
            <select
              id={id}
              value={templateId}
              onChange={(e) => {
                setTemplateId(e.target.value);
                setOffset(0);
              }}
            >
              <option value="">Any template</option>
              {(templates.data ?? []).map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Period overlaps from">
          {(id) => (
            <input
              id={id}
              type="date"
              value={from}
              onChange={(e) => {
                setFrom(e.target.value);
                setOffset(0);
              }}
            />
          )}
        </Field>
        <Field label="to">
          {(id) => (
            <input
              id={id}
              type="date"
              value={to}
              onChange={(e) => {
                setTo(e.target.value);
                setOffset(0);
              }}
            />
          )}
        </Field>
      </form>
      {loaded.error ? <ErrorMessage error={loaded.error} /> : null}
      {!loaded.data ? (
        loaded.error ? null : (
          <Loading what="reports" />
        )
      ) : loaded.data.items.length === 0 ? (
        <p>
          No reports match. <Link to="/reports/new">Create one</Link>.
        </p>
      ) : (
        <>
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Reports">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Period</th>
                  <th scope="col" className="num">
                    Total
                  </th>
                  <th scope="col" className="num">
                    Version
                  </th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {loaded.data.items.map((r) => (
                  <tr key={r.id}>
                    <td>
                      <Link to={`/reports/${r.id}`}>{r.name}</Link>
                    </td>
                    <td>
                      {formatDate(r.filters.dateRange.from)} – {formatDate(r.filters.dateRange.to)}
                    </td>
                    <td className="num">{formatMinutes(r.totalMinutes)}</td>
                    <td className="num">{r.version}</td>
                    <td>
                      <Time instant={r.updatedAt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav className="pager" aria-label="Pages">
            <button
              type="button"
              className="secondary"
              disabled={offset === 0}
              onClick={() => {
                setOffset(Math.max(0, offset - PAGE));
              }}
            >
              Previous
            </button>
            <span>
              {offset + 1}–{Math.min(offset + PAGE, total)} of {total}
            </span>
            <button
              type="button"
              className="secondary"
              disabled={offset + PAGE >= total}
              onClick={() => {
                setOffset(offset + PAGE);
              }}
            >
              Next
            </button>
          </nav>
        </>
      )}
    </>
  );
}
