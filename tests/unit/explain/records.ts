import type { LayoutRecord } from '../../../src/types';

/**
 * Layout records as capture/layout.ts takes them in Chromium: every property it reads, with the
 * values Chromium computes for an unstyled element, each distinct style set once in `styles`, a
 * parent index per element.
 */
export const CHROMIUM_DEFAULTS: Record<string, string> = {
  display: 'block',
  position: 'static',
  color: 'rgb(0, 0, 0)',
  'background-color': 'rgba(0, 0, 0, 0)',
  'background-image': 'none',
  'font-family': '"Times New Roman"',
  'font-size': '16px',
  'font-weight': '400',
  'font-style': 'normal',
  'line-height': 'normal',
  'letter-spacing': 'normal',
  'text-align': 'start',
  'text-decoration-line': 'none',
  'text-transform': 'none',
  'flex-direction': 'row',
  'flex-wrap': 'nowrap',
  'justify-content': 'normal',
  'align-items': 'normal',
  gap: 'normal',
  'grid-template-columns': 'none',
  'min-width': '0px',
  'max-width': 'none',
  'min-height': '0px',
  'max-height': 'none',
  visibility: 'visible',
  opacity: '1',
  transform: 'none',
  'box-shadow': 'none',
  'border-radius': '0px',
  'border-style': 'none',
  'border-color': 'rgb(0, 0, 0)',
  'z-index': 'auto',
  overflow: 'visible',
  margin: '0px',
  padding: '0px',
  'border-width': '0px',
};

/** One element as a test writes it: its path, box, own text and the styles that differ from Chromium's defaults. */
export interface Drawn {
  path: string;
  box: [number, number, number, number];
  text?: string;
  style?: Record<string, string>;
  /** Inside a mask the checkpoint paints over. */
  masked?: boolean;
}

/** A record of a page `width` × `height`: each element's parent is the nearest earlier element whose path is a prefix of its own. */
export function layoutRecord(drawn: readonly Drawn[], width = 1280, height = 720): LayoutRecord {
  const styles: Record<string, string>[] = [];
  const keys = new Map<string, number>();
  const elements = drawn.map((element, i) => {
    const style = { ...CHROMIUM_DEFAULTS, ...element.style };
    const key = JSON.stringify(style);
    if (!keys.has(key)) {
      keys.set(key, styles.length);
      styles.push(style);
    }
    let parent = -1;
    for (let j = i - 1; j >= 0 && parent < 0; j--) if (element.path.startsWith(`${drawn[j].path}>`)) parent = j;
    return {
      path: element.path,
      parent,
      box: element.box,
      text: element.text ?? '',
      style: keys.get(key)!,
      ...(element.masked ? { masked: true as const } : {}),
    };
  });
  return { version: 1, width, height, elements, styles, truncated: false, hidden: [] };
}
