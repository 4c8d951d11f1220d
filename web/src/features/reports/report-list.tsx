import { useState } from 'react';
import { api } from '../../lib/api.js';
import { useTitle } from '../../lib/session.js';
import { Link } from '../../lib/router.js';
import {
  ErrorMessage,
  InputField,
  SelectField,
  Loading,
  formatDate,
  formatMinutes,
  Time,
  useLoad,
  Pager,
  FilterForm,
} from '../../components/ui/ui.js';

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
  /** A filter change goes back to the first page. */
  const paged = (set: (value: string) => void) => (value: string) => {
    set(value);
    setOffset(0);
  };
  return (
    <>
      <div className="title-row">
        <h1>Reports</h1>
        <Link to="/reports/new" className="button">
          New report
        </Link>
      </div>
      <FilterForm label="Filter reports">
        <SelectField
          label="Template"
          value={templateId}
          onChange={paged(setTemplateId)}
          options={[['', 'Any template'], ...(templates.data ?? []).map((t) => [t.id, t.name] as const)]}
        />
        <InputField label="Period overlaps from" type="date" value={from} onChange={paged(setFrom)} />
        <InputField label="to" type="date" value={to} onChange={paged(setTo)} />
      </FilterForm>
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
          <Pager offset={offset} total={total} pageSize={PAGE} onChange={setOffset} />
        </>
      )}
    </>
  );
}
