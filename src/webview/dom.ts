/**
 * The webview's only way to make DOM: text goes in with textContent, always. The one exception,
 * `trustedHtml`, takes the `...Html` fields the extension's markdown renderer produced (raw HTML in pack
 * text is already escaped there), never a string from anywhere else.
 */

export type Child = Node | string | null | undefined | false;
type Attrs = Record<string, string | boolean | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    // Event handlers are attached with addEventListener by the caller; inline ones would break the CSP anyway.
    if (name.startsWith('on')) throw new Error(`inline handler ${name} is not allowed`);
    el.setAttribute(name, value === true ? '' : value);
  }
  append(el, ...children);
  return el;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  }
}

/** A container for HTML rendered by the extension's markdown renderer (see module comment). */
export function trustedHtml(tag: 'div' | 'span' | 'li' | 'blockquote', html: string, className = 'md'): HTMLElement {
  const el = document.createElement(tag);
  el.className = className;
  el.innerHTML = html;
  return el;
}

/** A button that looks like a link (keyboard-accessible, unlike a bare <a> without href). */
export function linkButton(text: string, onClick: () => void, attrs: Attrs = {}): HTMLButtonElement {
  const b = h('button', { type: 'button', class: 'link', ...attrs }, text);
  b.addEventListener('click', onClick);
  return b;
}

export function button(text: string, onClick: () => void, attrs: Attrs = {}): HTMLButtonElement {
  const b = h('button', { type: 'button', ...attrs }, text);
  b.addEventListener('click', onClick);
  return b;
}

export function section(id: string, title: string, ...children: Child[]): HTMLElement {
  return h('section', { id, 'aria-labelledby': `${id}-h` }, h('h2', { id: `${id}-h` }, title), ...children);
}

/**
 * A section the learner can fold: a <details> whose summary is the heading. `open` is the state to show;
 * `onToggle` hears the learner's own clicks, so a re-render keeps what they chose.
 */
export function foldSection(
  id: string,
  title: string,
  open: boolean,
  onToggle: (open: boolean) => void,
  ...children: Child[]
): HTMLElement {
  const details = h(
    'details',
    { class: 'fold', open },
    h('summary', {}, h('h2', { id: `${id}-h` }, title)),
    ...children,
  );
  // Setting `open` while building also queues a toggle event: only real changes count.
  let shown = open;
  details.addEventListener('toggle', () => {
    if (details.open === shown) return;
    shown = details.open;
    onToggle(details.open);
  });
  return h('section', { id, 'aria-labelledby': `${id}-h` }, details);
}

/**
 * Engine and author messages quote code in `backticks`. They can also quote what the learner's program
 * printed, so they are not markdown: only the backtick spans become <code>, and all of it is text nodes.
 */
export function richText(text: string): (Node | string)[] {
  const parts = text.split('`');
  // An odd count of backticks is not a quote: show the text as it is.
  if (parts.length % 2 === 0) return [text];
  return parts.map((part, i) => (i % 2 === 1 ? h('code', {}, part) : part));
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An "i in a circle" drawn as SVG in the text colour: the ⓘ glyph draws as an empty box where a font lacks it. */
export function infoIcon(): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('class', 'icon-svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const shape = (tag: string, attrs: Record<string, string>): void => {
    const el = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    svg.appendChild(el);
  };
  shape('circle', { cx: '8', cy: '8', r: '6.5' });
  shape('line', { x1: '8', y1: '7', x2: '8', y2: '11.5' });
  shape('circle', { cx: '8', cy: '4.8', r: '0.4' });
  return svg;
}
