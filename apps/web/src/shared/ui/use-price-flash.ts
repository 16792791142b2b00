import { useEffect, useRef, useState } from 'react';

/**
 * The class that flashes a live price in the up or down colour when it moves (the `flash-*`
 * rules of app.css); empty until it first moves. Two animation names alternate, so two moves
 * the same way in a row both flash.
 */
export function usePriceFlash(price: string): string {
  const previous = useRef(price);
  const [flash, setFlash] = useState<{ direction: 'up' | 'down'; count: number } | null>(null);
  useEffect(() => {
    const before = Number(previous.current);
    const now = Number(price);
    previous.current = price;
    if (now === before || Number.isNaN(now) || Number.isNaN(before)) return;
    setFlash((f) => ({ direction: now > before ? 'up' : 'down', count: (f?.count ?? 0) + 1 }));
  }, [price]);
  return flash ? `flash-${flash.direction}-${flash.count % 2}` : '';
}
