import { useEffect, useRef } from 'react';

/** Moves focus to a heading once it appears, so keyboard and screen-reader users land on what they asked for. */
export function useFocusOnShow<T extends HTMLElement>(key: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [key]);
  return ref;
}
