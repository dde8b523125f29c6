import { getLocale } from "./locale";

// ... existing code ...

export function formatNumber(value, locale = getLocale()) {
  return new Intl.NumberFormat(locale).format(value);
}

// ... existing code ...
