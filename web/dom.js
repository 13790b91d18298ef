// Small helpers for building the page with DOM calls (never markup strings).

const NS = 'http://www.w3.org/2000/svg';

/** The element with id `id`. */
export const $ = (id) => document.getElementById(id);

/** An HTML element with a class and children (strings become text). */
export function el(tag, cls, ...children) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  for (const c of children) e.append(c);
  return e;
}

/** An SVG element with attributes (null and undefined ones left out) and children. */
export function svgEl(tag, attrs = {}, children = []) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) {
    const v = attrs[k];
    if (v !== undefined && v !== null) e.setAttribute(k, v);
  }
  for (const c of children) e.appendChild(c);
  return e;
}

/** `parent`'s children replaced by `kids`, however many (no argument spread). */
export function fill(parent, kids) {
  const frag = document.createDocumentFragment();
  for (const k of kids) frag.appendChild(k);
  parent.replaceChildren(frag);
}
