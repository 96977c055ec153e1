/**
 * The review page's script, run in the browser. It builds the entries with DOM calls only (text,
 * never markup), so nothing from the results file is ever parsed as HTML. The build compiles it to
 * review-client.js, which review-page.ts inlines under the page's CSP nonce.
 *
 * A script, not a module (no import or export): it runs as the page's inline script, and the
 * function around it keeps its names out of the program's global scope. Its types come from
 * review-model.ts through type-only `import()`s, which leave nothing in the compiled script.
 */
(function reviewClient(): void {
  type ReviewModel = import('./review-model').ReviewModel;
  type ReviewEntry = import('./review-model').ReviewEntry;
  type ReviewCheckpoint = import('./review-model').ReviewCheckpoint;
  type ReviewDecision = import('./review-model').ReviewDecision;
  type Region = import('../types').Region;
  type DecisionKind = ReviewDecision['decision'];
  type View = (typeof VIEWS)[number];
  /** What /api/decisions answers: the decision it recorded, or why it did not. */
  type DecisionAnswer = { ok: true; body: { decision: ReviewDecision } } | { ok: false; body: { error: string } };
  type Attributes = Record<string, string | ((event: Event) => void)>;
  interface Outline {
    r: Region;
    kind: 'region' | 'region unexplained';
  }
  interface EntryState {
    checkpoint: number;
    view: View;
  }
  interface Article {
    node: HTMLElement;
    /** Decides the entry, or (given a checkpoint's key) everything that checkpoint shows. */
    decide(kind: DecisionKind, target?: string): void;
  }

  const VIEWS = ['Side by side', 'Slider', 'Diff', 'Overlay'] as const;

  const model = JSON.parse(document.getElementById('review-data')!.textContent!) as ReviewModel;
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const main = document.querySelector('main')!;
  const articles: Article[] = [];
  let current = -1;

  function el<K extends keyof HTMLElementTagNameMap>(
    tag: K,
    attrs: Attributes = {},
    children: (Node | null)[] = [],
  ): HTMLElementTagNameMap[K] {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (typeof value === 'function') node.addEventListener(key.slice(2), value);
      else if (key === 'text') node.textContent = value;
      else if (key === 'class') node.className = value;
      else node.setAttribute(key, value);
    }
    for (const child of children) if (child) node.appendChild(child);
    return node;
  }
  function imageUrl(path: string): string {
    return `/image?path=${encodeURIComponent(path)}&token=${encodeURIComponent(token)}`;
  }
  function img(path: string, alt: string, extra: Attributes = {}): HTMLImageElement {
    return el('img', { src: imageUrl(path), alt, loading: 'lazy', decoding: 'async', ...extra });
  }
  /** The regions outlined on a checkpoint's current and diff images: its change's, and (dashed) those the words do not explain. */
  function outlinesOf(checkpoint: ReviewCheckpoint): Outline[] {
    return [
      ...checkpoint.regions.map((r): Outline => ({ r, kind: 'region' })),
      ...checkpoint.unexplained.map((r): Outline => ({ r, kind: 'region unexplained' })),
    ];
  }
  /** A tall image in a box of its own that opens where the entry's change is, its regions outlined (scaled as the image is shown). */
  function scroller(content: HTMLElement, image: HTMLImageElement, top: number, outlines: Outline[]): HTMLElement {
    const box = el('div', { class: 'scroller' }, [content]);
    image.addEventListener('load', () => {
      const scale = image.clientWidth / image.naturalWidth;
      for (const { r, kind } of outlines) {
        const outline = el('div', { class: kind });
        outline.style.left = `${image.offsetLeft + r.x * scale}px`;
        outline.style.top = `${image.offsetTop + r.y * scale}px`;
        outline.style.width = `${r.width * scale}px`;
        outline.style.height = `${r.height * scale}px`;
        box.appendChild(outline);
      }
      box.scrollTop = Math.max(0, top * scale - 80);
    });
    return box;
  }

  function viewer(checkpoint: ReviewCheckpoint, state: EntryState): HTMLElement {
    const box = el('div', { class: 'viewer' });
    function render(): void {
      box.textContent = '';
      const i = checkpoint.images;
      const buttons = VIEWS.map((name) => {
        const button = el('button', {
          type: 'button',
          text: name,
          'aria-pressed': String(state.view === name),
          onclick: () => {
            state.view = name;
            render();
          },
        });
        button.disabled = (name === 'Diff' && !i.diff) || (name !== 'Side by side' && !(i.baseline && i.current));
        return button;
      });
      box.appendChild(el('div', { class: 'views', role: 'group', 'aria-label': 'Image view' }, buttons));
      const top = checkpoint.changeTop;
      // The regions are in current-image pixels: outlined on the current and the diff image.
      const side = (caption: string, path: string, alt: string, outlines: Outline[]) => {
        const image = img(path, alt);
        return el('figure', {}, [el('figcaption', { text: caption }), scroller(image, image, top, outlines)]);
      };
      if (state.view === 'Side by side' || !(i.baseline && i.current)) {
        box.appendChild(
          el('div', { class: 'images' }, [
            i.baseline ? side('Baseline (base branch)', i.baseline, 'baseline', []) : null,
            i.current ? side('Current', i.current, 'current', outlinesOf(checkpoint)) : null,
          ]),
        );
      } else if (state.view === 'Diff') {
        box.appendChild(
          side(
            'Diff: changed pixels red, added rows green, a violet rule where rows were removed',
            i.diff!,
            'diff',
            outlinesOf(checkpoint),
          ),
        );
      } else {
        const upper = img(i.current, 'current', { class: 'top' });
        const range = el('input', {
          type: 'range',
          min: '0',
          max: '100',
          value: '50',
          'aria-label': state.view === 'Slider' ? 'Slider position' : 'Overlay opacity',
        });
        const apply = (): void => {
          if (state.view === 'Slider') upper.style.clipPath = `inset(0 ${100 - Number(range.value)}% 0 0)`;
          else upper.style.opacity = String(Number(range.value) / 100);
        };
        range.addEventListener('input', apply);
        apply();
        box.appendChild(
          el('label', { class: 'range' }, [
            document.createTextNode(state.view === 'Slider' ? 'baseline ◀ ▶ current' : 'current opacity'),
            range,
          ]),
        );
        const lower = img(i.baseline, 'baseline');
        box.appendChild(scroller(el('div', { class: 'stack' }, [lower, upper]), lower, top, outlinesOf(checkpoint)));
      }
    }
    render();
    return box;
  }

  function signals(checkpoint: ReviewCheckpoint): HTMLElement[] {
    const s = checkpoint.signals;
    const parts: HTMLElement[] = [];
    if (s.ariaDiff) parts.push(el('details', {}, [el('summary', { text: 'ARIA snapshot diff' }), el('pre', { text: s.ariaDiff })]));
    const lists: [string, string[]][] = [
      ['New console errors', s.newConsoleErrors],
      ['New failed requests', s.newFailedRequests],
      [
        'New accessibility violations',
        s.newA11yViolations.map((v) => `${v.id} (${v.impact || 'unknown impact'}): ${v.targets.join(', ')}`),
      ],
    ];
    for (const [title, lines] of lists) {
      if (lines.length)
        parts.push(
          el('div', { class: 'signals' }, [
            el('strong', { text: title }),
            el(
              'ul',
              {},
              lines.map((line) => el('li', { text: line })),
            ),
          ]),
        );
    }
    return parts;
  }

  function decisionText(d: ReviewDecision): string {
    return (
      `${d.decision === 'approved' ? 'Approved' : 'Rejected'} by ${d.by} ` +
      `on ${d.at.slice(0, 10)}${d.reason ? `: ${d.reason}` : ''} (applies from the next run)`
    );
  }

  function entryView(entry: ReviewEntry, index: number): Article {
    const state: EntryState = { checkpoint: 0, view: 'Side by side' };
    const node = el('article', { 'aria-label': entry.title, tabindex: '-1', 'data-entry': entry.id });
    const decision = el('span', {
      class: `decision${entry.decision ? ` ${entry.decision.decision}` : ''}`,
      role: 'status',
      text: entry.decision ? decisionText(entry.decision) : '',
    });
    const reason = el('input', { type: 'text', placeholder: 'Reason (optional)', 'aria-label': 'Reason' });
    // target: the entry (its group), or a checkpoint's key for everything that checkpoint shows.
    function decide(kind: DecisionKind, target?: string): void {
      if (!entry.decidable) return;
      decision.textContent = 'Saving…';
      fetch('/api/decisions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-visual-uat-token': token },
        body: JSON.stringify({ run: model.run!.timestamp, entry: target || entry.id, decision: kind, reason: reason.value || null }),
      })
        .then((response) => response.json().then((body: unknown) => ({ ok: response.ok, body }) as DecisionAnswer))
        .then((answer) => {
          if (!answer.ok) {
            decision.className = 'decision rejected';
            decision.textContent = answer.body.error;
            return;
          }
          entry.decision = answer.body.decision;
          decision.className = `decision ${entry.decision.decision}`;
          decision.textContent = decisionText(entry.decision);
          select(index + 1 < articles.length ? index + 1 : index);
        })
        .catch((error: Error) => {
          decision.className = 'decision rejected';
          decision.textContent = `Not saved: ${error.message}`;
        });
    }
    const head = el('h2', {}, [el('span', { class: `status ${entry.status}`, text: entry.status }), el('span', { text: entry.title })]);
    const confidence = entry.evaluation ? ` (evaluator confidence ${entry.evaluation.confidence.toFixed(2)})` : '';
    node.appendChild(head);
    node.appendChild(el('p', { class: 'reason', text: entry.reason + confidence }));
    if (entry.decidable) {
      node.appendChild(
        el('div', { class: 'actions' }, [
          el('button', {
            type: 'button',
            class: 'approve',
            text: 'Approve',
            onclick: () => {
              select(index);
              decide('approved');
            },
          }),
          el('button', {
            type: 'button',
            class: 'reject',
            text: 'Reject',
            onclick: () => {
              select(index);
              decide('rejected');
            },
          }),
          reason,
          decision,
        ]),
      );
    }
    const body = el('div');
    function renderBody(): void {
      body.textContent = '';
      if (entry.checkpoints.length > 1) {
        body.appendChild(
          el(
            'ul',
            { class: 'members', 'aria-label': 'Checkpoints with this change' },
            entry.checkpoints.map((c, i) =>
              el('li', {}, [
                el('button', {
                  type: 'button',
                  'aria-pressed': String(state.checkpoint === i),
                  text: c.title + (c.otherGroups.length ? ` (also ${c.otherGroups.join(', ')})` : ''),
                  onclick: () => {
                    state.checkpoint = i;
                    renderBody();
                  },
                }),
              ]),
            ),
          ),
        );
      }
      const c = entry.checkpoints[state.checkpoint];
      if (c.otherGroups.length) {
        body.appendChild(
          el('p', {}, [
            document.createTextNode(
              `Also changed here: group ` +
                `${c.otherGroups.join(', ')}${entry.decidable ? `. The images open on this change (${entry.id}), outlined. ` : ''}`,
            ),
            entry.decidable
              ? el('button', {
                  type: 'button',
                  class: 'approve',
                  text: 'Approve all it shows',
                  'aria-label': `Approve everything ${c.title} shows`,
                  onclick: () => {
                    select(index);
                    decide('approved', c.key);
                  },
                })
              : null,
          ]),
        );
      }
      if (c.pixelDiffPercent)
        body.appendChild(
          el('p', {
            class: 'help',
            text: `${c.pixelDiffPercent}% of pixels changed${entry.checkpoints.length > 1 ? ` on ${c.title}` : ''}`,
          }),
        );
      if (c.explanation.length)
        body.appendChild(
          el(
            'ul',
            { class: 'explanation', 'aria-label': 'What changed' },
            c.explanation.map((line) => el('li', { text: line })),
          ),
        );
      if (c.unexplained.length)
        body.appendChild(
          el('p', {
            class: 'help',
            text: 'Outlined dashed red: the changed regions the words above do not explain. Look at them before you approve.',
          }),
        );
      body.appendChild(viewer(c, state));
      for (const part of signals(c)) body.appendChild(part);
    }
    renderBody();
    node.appendChild(body);
    node.addEventListener('click', () => {
      if (current !== index) select(index, true);
    });
    return { node, decide };
  }

  function select(index: number, quiet = false): void {
    if (index < 0 || index >= articles.length) return;
    if (current >= 0) {
      articles[current].node.classList.remove('current');
      articles[current].node.removeAttribute('aria-current');
    }
    current = index;
    articles[index].node.classList.add('current');
    articles[index].node.setAttribute('aria-current', 'true');
    if (!quiet) {
      articles[index].node.focus({ preventScroll: true });
      articles[index].node.scrollIntoView({ block: 'start' });
    }
  }

  const header = document.querySelector('header.top')!;
  if (!model.run) {
    main.appendChild(el('div', { class: 'empty', role: 'status', text: model.message ?? '' }));
    return;
  }
  header.appendChild(el('p', { text: model.run.title }));
  header.appendChild(el('p', { text: model.run.counts }));
  header.appendChild(
    el('p', { class: 'help' }, [
      el('kbd', { text: 'j' }),
      document.createTextNode(' / '),
      el('kbd', { text: 'k' }),
      document.createTextNode(' next / previous · '),
      el('kbd', { text: 'a' }),
      document.createTextNode(' approve · '),
      el('kbd', { text: 'r' }),
      document.createTextNode(' reject'),
    ]),
  );
  if (!model.entries.length) {
    main.appendChild(
      el('div', {
        class: 'empty',
        role: 'status',
        text: `Nothing to review: all ${model.run.unchanged} checkpoints of this run are unchanged.`,
      }),
    );
    return;
  }
  model.entries.forEach((entry, i) => {
    const article = entryView(entry, i);
    articles.push(article);
    main.appendChild(article.node);
  });
  select(0, true);
  document.addEventListener('keydown', (event) => {
    if (event.target instanceof HTMLElement && /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName)) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key;
    if (key === 'j' || key === 'ArrowDown') select(current + 1);
    else if (key === 'k' || key === 'ArrowUp') select(current - 1);
    else if (key === 'a') articles[current].decide('approved');
    else if (key === 'r') articles[current].decide('rejected');
    else return;
    event.preventDefault();
  });
})();
