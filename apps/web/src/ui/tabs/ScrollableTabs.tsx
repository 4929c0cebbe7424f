import { useEffect, useRef } from 'react';
import { Tabs, useTheme, type TabsProps } from '@mui/material';

/** Scrolls the scroller so the selected tab is whole and, when it was cut off, centred. */
function revealSelectedTab(root: HTMLElement) {
  const scroller = root.querySelector<HTMLElement>('.MuiTabs-scroller');
  const tab = scroller?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]');
  if (!scroller || !tab) return;
  const view = scroller.getBoundingClientRect();
  const box = tab.getBoundingClientRect();
  if (box.left >= view.left - 1 && box.right <= view.right + 1) return;
  scroller.scrollLeft += box.left + box.width / 2 - (view.left + view.width / 2);
}

/**
 * MUI Tabs that scroll on narrow screens (arrows also on phones) and keep the selected tab in view. MUI's own
 * scroll-into-view runs before the arrows appear and shrink the scroller, which leaves the selected tab half
 * hidden on a phone; this reveals it again whenever the selection or the scroller's width changes.
 */
export function ScrollableTabs(
  props: Omit<TabsProps, 'variant' | 'scrollButtons' | 'allowScrollButtonsMobile'>,
) {
  const ref = useRef<HTMLDivElement>(null);
  const { value } = props;
  // MUI animates its own scroll for this long and would overwrite ours meanwhile: reveal again once it is done.
  const animation = useTheme().transitions.duration.standard + 50;
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const reveal = () => {
      revealSelectedTab(root);
      clearTimeout(timer);
      timer = setTimeout(() => revealSelectedTab(root), animation);
    };
    const frame = requestAnimationFrame(reveal);
    const scroller = root.querySelector('.MuiTabs-scroller');
    const observer = typeof ResizeObserver === 'undefined' || !scroller ? null : new ResizeObserver(reveal);
    if (observer && scroller) observer.observe(scroller);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      observer?.disconnect();
    };
  }, [value, animation]);
  return <Tabs {...props} ref={ref} variant="scrollable" scrollButtons="auto" allowScrollButtonsMobile />;
}
