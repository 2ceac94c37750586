import type { ReactNode } from "react";
import * as admin from "./admin.css";

/**
 * The admin's lists: one table shape for every tab. Below 768 px the rows become stacked cards
 * (admin.css), each cell showing its column's name from `data-label`, so a cell is always `<Cell>`.
 */
export function AdminTable({
  columns,
  testId,
  caption,
  headClassName,
  wrap = true,
  children,
}: {
  /** Column names, in order; each row's cells use the same labels. */
  columns: readonly string[];
  testId?: string;
  caption?: { text: string; className: string };
  /** For example a sticky head inside a scroll region. */
  headClassName?: string;
  /** False when the table already sits in a scroll region of its own. */
  wrap?: boolean;
  children: ReactNode;
}) {
  const table = (
    <table className={admin.table} data-testid={testId}>
      {caption ? <caption className={caption.className}>{caption.text}</caption> : null}
      <thead className={headClassName}>
        <tr>
          {columns.map((column) => (
            <th key={column} className={admin.cell} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
  return wrap ? <div className={admin.tableWrap}>{table}</div> : table;
}

/** One cell of an AdminTable row, labelled with its column for the stacked layout. */
export function Cell({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <td className={className ? `${admin.cell} ${className}` : admin.cell} data-label={label}>
      {children}
    </td>
  );
}
