import { useMemo, useState } from "react";
import { Pagination } from "@/components/ui/pagination";
import { TableEmpty } from "@/components/ui/table-empty";
// ... existing code ...
  if (rows.length === 0) {
    return <TableEmpty title={emptyMessage} description="Try changing your filters." />;
  }
// ... existing code ...
