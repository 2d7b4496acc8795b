import { useCallback, useEffect, useState } from 'react';

/** Whether the page is full screen, and a request for it (browsers grant it only from a click or a key). */
export function useFullscreen(): { full: boolean; enter(): void } {
  const [full, setFull] = useState(() => document.fullscreenElement !== null);
  useEffect(() => {
    const on = () => setFull(document.fullscreenElement !== null);
    document.addEventListener('fullscreenchange', on);
    return () => document.removeEventListener('fullscreenchange', on);
  }, []);
  const enter = useCallback(() => {
    document.documentElement.requestFullscreen?.().catch(() => {
      /* refused: the prompt stays */
    });
  }, []);
  return { full, enter };
}
