"use client";

import { useMemo, useState } from "react";
import clsx from "clsx";
import { ChevronDown, ChevronUp } from "lucide-react";
import { Pagination } from "@/components/ui/pagination";

export type Column<T> = {
  key: keyof T;
  header: string;
  sortable?: boolean;
  width?: number;
  render?: (row: T) => React.ReactNode;
};

type SortState<T> = {
  key: keyof T;
  direction: "asc" | "desc";
} | null;

interface DataTableProps<T> {
  rows: T[];
  columns: Column<T>[];
  pageSize?: number;
  emptyMessage?: string;
  caption?: string;
  onRowClick?: (row: T) => void;
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  return a < b ? -1 : 1;
}

export function DataTable<T extends { id: string | number }>({
  rows,
  columns,
  pageSize = 20,
  emptyMessage = "No results",
  caption,
  onRowClick,
}: DataTableProps<T>) {
  const [sort, setSort] = useState<SortState<T>>(null);
  const [page, setPage] = useState(1);

  const sorted = useMemo(() => {
    if (!sort) return rows;
    const copy = [...rows];
    copy.sort((a, b) => {
      const result = compare(a[sort.key], b[sort.key]);
      return sort.direction === "asc" ? result : -result;
    });
    return copy;
  }, [rows, sort]);

  const pageCount = Math.max(1, Math.ceil(sorted.length / pageSize));
  const visible = sorted.slice((page - 1) * pageSize, page * pageSize);

  function toggleSort(key: keyof T) {
    setSort((current) => {
      if (!current || current.key !== key) return { key, direction: "asc" };
      if (current.direction === "asc") return { key, direction: "desc" };
      return null;
    });
    setPage(1);
  }

  function goToPage(next: number) {
    setPage(Math.min(Math.max(1, next), pageCount));
  }

  if (rows.length === 0) {
    return <p className="text-sm text-muted-foreground">{emptyMessage}</p>;
  }

  return (
    <div className="rounded-md border">
      <table className="w-full text-sm">
        {caption && <caption className="sr-only">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column) => (
              <th
                key={String(column.key)}
                style={{ width: column.width }}
                className={clsx("px-3 py-2 text-left font-medium", column.sortable && "cursor-pointer")}
                onClick={column.sortable ? () => toggleSort(column.key) : undefined}
              >
                <span className="inline-flex items-center gap-1">
                  {column.header}
                  {sort?.key === column.key &&
                    (sort.direction === "asc" ? <ChevronUp size={14} /> : <ChevronDown size={14} />)}
                </span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {visible.map((row) => (
            <tr
              key={row.id}
              className={clsx("border-t", onRowClick && "cursor-pointer hover:bg-muted/50")}
              onClick={onRowClick ? () => onRowClick(row) : undefined}
            >
              {columns.map((column) => (
                <td key={String(column.key)} className="px-3 py-2">
                  {column.render ? column.render(row) : String(row[column.key] ?? "")}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="flex items-center justify-between border-t px-3 py-2">
        <span className="text-xs text-muted-foreground">
          {sorted.length} {sorted.length === 1 ? "row" : "rows"}
        </span>
        <Pagination page={page} pageCount={pageCount} onPageChange={goToPage} />
      </div>
    </div>
  );
}
