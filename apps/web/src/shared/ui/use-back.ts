import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { PATHS } from '../paths.ts';

/**
 * Back as the spec wants it: one step back when the app has history of its own, else replace
 * the page with the markets (e.g. a deep link opened in a fresh tab).
 */
export function useBack(): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    // why: the router's hash history numbers its entries; idx 0 is the page the app opened on.
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) navigate(-1);
    else navigate(PATHS.markets, { replace: true });
  }, [navigate]);
}
