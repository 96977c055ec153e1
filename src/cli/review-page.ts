import type { ReviewModel } from './review-model';

/**
 * The review page: one HTML document with its data, its style and its script inline (no
 * framework, nothing fetched but the images, which load lazily as entries scroll into view). The
 * script builds the entries with DOM calls only (text, never markup), so nothing from the results
 * file is ever parsed as HTML.
 */

const STYLE = `
:root { font-family: system-ui, sans-serif; color: #1b1f24; background: #f6f7f9; }
body { margin: 0; }
header.top { position: sticky; top: 0; z-index: 2; background: #14213d; color: #fff; padding: 10px 20px; display: flex; gap: 24px; align-items: baseline; flex-wrap: wrap; }
header.top h1 { font-size: 18px; margin: 0; }
header.top p { margin: 0; font-size: 13px; opacity: .85; }
main { max-width: 1400px; margin: 0 auto; padding: 16px 20px 80px; }
.empty { background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 32px; font-size: 16px; }
article { background: #fff; border: 1px solid #d0d7de; border-radius: 8px; margin: 0 0 16px; padding: 12px 16px; scroll-margin-top: 64px; content-visibility: auto; contain-intrinsic-size: auto 900px; }
article.current { outline: 3px solid #2a6df4; }
article h2 { font-size: 16px; margin: 0; display: flex; gap: 10px; align-items: center; flex-wrap: wrap; }
.status { font-size: 12px; font-weight: 600; padding: 2px 8px; border-radius: 10px; background: #eaeef2; }
.status.regression { background: #ffd7d5; color: #82071e; } .status.needs_review { background: #fff1c2; color: #7a4d00; }
.status.changed { background: #d2f4dc; color: #116329; } .status.errored, .status.missing { background: #ffd7d5; color: #82071e; }
.reason { margin: 6px 0; white-space: pre-wrap; }
.explanation { margin: 6px 0; padding-left: 20px; font-family: ui-monospace, monospace; font-size: 13px; }
.actions { display: flex; gap: 8px; align-items: center; margin: 8px 0; flex-wrap: wrap; }
.actions button { font-size: 14px; padding: 6px 14px; border-radius: 6px; border: 1px solid #8c959f; background: #f6f8fa; cursor: pointer; }
.actions button.approve { background: #1f883d; color: #fff; border-color: #1a7f37; }
.actions button.reject { background: #cf222e; color: #fff; border-color: #a40e26; }
.actions input { flex: 1; min-width: 160px; max-width: 420px; padding: 5px 8px; }
.decision { font-weight: 600; } .decision.approved { color: #116329; } .decision.rejected { color: #82071e; }
.members { margin: 6px 0; padding: 0; list-style: none; display: flex; flex-wrap: wrap; gap: 6px; }
.members button { font-size: 12px; border: 1px solid #d0d7de; background: #fff; border-radius: 6px; padding: 3px 8px; cursor: pointer; }
.members button[aria-pressed=true] { background: #ddf4ff; border-color: #2a6df4; }
.views { display: flex; gap: 4px; margin: 8px 0; }
.views button { font-size: 13px; border: 1px solid #d0d7de; background: #fff; padding: 4px 10px; cursor: pointer; }
.views button[aria-pressed=true] { background: #14213d; color: #fff; }
.images { display: flex; gap: 12px; align-items: flex-start; }
.scroller { max-height: 520px; overflow: auto; position: relative; }
.region { position: absolute; outline: 2px solid #d4a72c; outline-offset: 1px; pointer-events: none; }
.region.unexplained { outline: 2px dashed #cf222e; outline-offset: 4px; }
.images figure { margin: 0; flex: 1; min-width: 0; }
.images figcaption { font-size: 12px; color: #57606a; margin-bottom: 4px; }
.images img { max-width: 100%; border: 1px solid #d0d7de; display: block; }
.stack { position: relative; display: inline-block; max-width: 100%; }
.stack img { display: block; max-width: 100%; border: 1px solid #d0d7de; }
.stack img.top { position: absolute; left: 0; top: 0; }
.range { display: flex; gap: 8px; align-items: center; font-size: 12px; margin: 6px 0; }
details { margin: 6px 0; } pre { background: #f6f8fa; padding: 8px; overflow: auto; max-height: 320px; font-size: 12px; }
.signals li { font-size: 13px; }
.help { font-size: 12px; opacity: .85; }
kbd { border: 1px solid #8c959f; border-radius: 3px; padding: 0 4px; font-size: 11px; background: #fff; color: #1b1f24; }
`;

const SCRIPT = `
(function () {
  var model = JSON.parse(document.getElementById('review-data').textContent);
  var token = new URLSearchParams(location.search).get('token') || '';
  var main = document.querySelector('main');
  var articles = [];
  var current = -1;

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === 'text') node.textContent = attrs[key];
      else if (key === 'class') node.className = attrs[key];
      else if (key.slice(0, 2) === 'on') node.addEventListener(key.slice(2), attrs[key]);
      else node.setAttribute(key, attrs[key]);
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }
  function imageUrl(path) { return '/image?path=' + encodeURIComponent(path) + '&token=' + encodeURIComponent(token); }
  function img(path, alt, extra) { return el('img', Object.assign({ src: imageUrl(path), alt: alt, loading: 'lazy', decoding: 'async' }, extra || {})); }
  /** The regions outlined on a checkpoint's current and diff images: its change's, and (dashed) those the words do not explain. */
  function outlinesOf(checkpoint) {
    return checkpoint.regions.map(function (r) { return { r: r, kind: 'region' }; })
      .concat(checkpoint.unexplained.map(function (r) { return { r: r, kind: 'region unexplained' }; }));
  }
  /** A tall image in a box of its own that opens where the entry's change is, its regions outlined (scaled as the image is shown). */
  function scroller(content, image, top, outlines) {
    var box = el('div', { class: 'scroller' }, [content]);
    image.addEventListener('load', function () {
      var scale = image.clientWidth / image.naturalWidth;
      (outlines || []).forEach(function (o) {
        var r = o.r;
        var outline = el('div', { class: o.kind });
        outline.style.left = (image.offsetLeft + r.x * scale) + 'px'; outline.style.top = (image.offsetTop + r.y * scale) + 'px';
        outline.style.width = (r.width * scale) + 'px'; outline.style.height = (r.height * scale) + 'px';
        box.appendChild(outline);
      });
      box.scrollTop = Math.max(0, top * scale - 80);
    });
    return box;
  }

  var VIEWS = ['Side by side', 'Slider', 'Diff', 'Overlay'];
  function viewer(checkpoint, state) {
    var box = el('div', { class: 'viewer' });
    function render() {
      box.textContent = '';
      var i = checkpoint.images;
      var buttons = VIEWS.map(function (name) {
        var button = el('button', { type: 'button', text: name, 'aria-pressed': String(state.view === name), onclick: function () { state.view = name; render(); } });
        button.disabled = (name === 'Diff' && !i.diff) || (name !== 'Side by side' && !(i.baseline && i.current));
        return button;
      });
      box.appendChild(el('div', { class: 'views', role: 'group', 'aria-label': 'Image view' }, buttons));
      var top = checkpoint.changeTop;
      // The regions are in current-image pixels: outlined on the current and the diff image.
      function side(caption, path, alt, outlines) { var image = img(path, alt); return el('figure', {}, [el('figcaption', { text: caption }), scroller(image, image, top, outlines)]); }
      if (state.view === 'Side by side' || !(i.baseline && i.current)) {
        box.appendChild(el('div', { class: 'images' }, [
          i.baseline ? side('Baseline (base branch)', i.baseline, 'baseline', []) : null,
          i.current ? side('Current', i.current, 'current', outlinesOf(checkpoint)) : null,
        ]));
      } else if (state.view === 'Diff') {
        box.appendChild(side('Diff: changed pixels red, added rows green, a violet rule where rows were removed', i.diff, 'diff', outlinesOf(checkpoint)));
      } else {
        var upper = img(i.current, 'current', { class: 'top' });
        var range = el('input', { type: 'range', min: '0', max: '100', value: '50', 'aria-label': state.view === 'Slider' ? 'Slider position' : 'Overlay opacity' });
        function apply() {
          if (state.view === 'Slider') upper.style.clipPath = 'inset(0 ' + (100 - range.value) + '% 0 0)';
          else upper.style.opacity = String(range.value / 100);
        }
        range.addEventListener('input', apply);
        apply();
        box.appendChild(el('label', { class: 'range' }, [document.createTextNode(state.view === 'Slider' ? 'baseline ◀ ▶ current' : 'current opacity'), range]));
        var lower = img(i.baseline, 'baseline');
        box.appendChild(scroller(el('div', { class: 'stack' }, [lower, upper]), lower, top, outlinesOf(checkpoint)));
      }
    }
    render();
    return box;
  }

  function signals(checkpoint) {
    var s = checkpoint.signals;
    var parts = [];
    if (s.ariaDiff) parts.push(el('details', {}, [el('summary', { text: 'ARIA snapshot diff' }), el('pre', { text: s.ariaDiff })]));
    var lists = [['New console errors', s.newConsoleErrors], ['New failed requests', s.newFailedRequests],
      ['New accessibility violations', s.newA11yViolations.map(function (v) { return v.id + ' (' + (v.impact || 'unknown impact') + '): ' + v.targets.join(', '); })]];
    lists.forEach(function (pair) {
      if (pair[1].length) parts.push(el('div', { class: 'signals' }, [el('strong', { text: pair[0] }), el('ul', {}, pair[1].map(function (t) { return el('li', { text: t }); }))]));
    });
    return parts;
  }

  function decisionText(d) { return (d.verdict === 'approved' ? 'Approved' : 'Rejected') + ' by ' + d.by + ' on ' + d.at.slice(0, 10) + (d.reason ? ': ' + d.reason : '') + ' (applies from the next run)'; }

  function entryView(entry, index) {
    var state = { checkpoint: 0, view: 'Side by side' };
    var article = el('article', { 'aria-label': entry.title, tabindex: '-1', 'data-entry': entry.id });
    var decision = el('span', { class: 'decision' + (entry.decision ? ' ' + entry.decision.verdict : ''), role: 'status', text: entry.decision ? decisionText(entry.decision) : '' });
    var reason = el('input', { type: 'text', placeholder: 'Reason (optional)', 'aria-label': 'Reason' });
    // target: the entry (its group), or a checkpoint's key for everything that checkpoint shows.
    function decide(verdict, target) {
      if (!entry.decidable) return;
      decision.textContent = 'Saving…';
      fetch('/api/decisions', { method: 'POST', headers: { 'content-type': 'application/json', 'x-visual-uat-token': token },
        body: JSON.stringify({ run: model.run.timestamp, entry: target || entry.id, verdict: verdict, reason: reason.value || null }) })
        .then(function (response) { return response.json().then(function (body) { return { ok: response.ok, body: body }; }); })
        .then(function (answer) {
          if (!answer.ok) { decision.className = 'decision rejected'; decision.textContent = answer.body.error; return; }
          entry.decision = answer.body.decision;
          decision.className = 'decision ' + entry.decision.verdict;
          decision.textContent = decisionText(entry.decision);
          select(index + 1 < articles.length ? index + 1 : index);
        })
        .catch(function (error) { decision.className = 'decision rejected'; decision.textContent = 'Not saved: ' + error.message; });
    }
    article.decide = decide;
    var head = el('h2', {}, [el('span', { class: 'status ' + entry.status, text: entry.status }), el('span', { text: entry.title })]);
    var confidence = entry.evaluation ? ' (evaluator confidence ' + entry.evaluation.confidence.toFixed(2) + ')' : '';
    article.appendChild(head);
    article.appendChild(el('p', { class: 'reason', text: entry.reason + confidence }));
    if (entry.decidable) article.appendChild(el('div', { class: 'actions' }, [
      el('button', { type: 'button', class: 'approve', text: 'Approve', onclick: function () { select(index); decide('approved'); } }),
      el('button', { type: 'button', class: 'reject', text: 'Reject', onclick: function () { select(index); decide('rejected'); } }),
      reason, decision,
    ]));
    var body = el('div', {});
    function renderBody() {
      body.textContent = '';
      if (entry.checkpoints.length > 1) {
        body.appendChild(el('ul', { class: 'members', 'aria-label': 'Checkpoints with this change' }, entry.checkpoints.map(function (c, i) {
          return el('li', {}, [el('button', { type: 'button', 'aria-pressed': String(state.checkpoint === i), text: c.title + (c.otherGroups.length ? ' (also ' + c.otherGroups.join(', ') + ')' : ''), onclick: function () { state.checkpoint = i; renderBody(); } })]);
        })));
      }
      var c = entry.checkpoints[state.checkpoint];
      if (c.otherGroups.length) body.appendChild(el('p', {}, [
        document.createTextNode('Also changed here: group ' + c.otherGroups.join(', ') + (entry.decidable ? '. The images open on this change (' + entry.id + '), outlined. ' : '')),
        entry.decidable ? el('button', { type: 'button', class: 'approve', text: 'Approve all it shows', 'aria-label': 'Approve everything ' + c.title + ' shows', onclick: function () { select(index); decide('approved', c.key); } }) : null,
      ]));
      if (c.pixelDiffPercent) body.appendChild(el('p', { class: 'help', text: c.pixelDiffPercent + '% of pixels changed' + (entry.checkpoints.length > 1 ? ' on ' + c.title : '') }));
      if (c.explanation.length) body.appendChild(el('ul', { class: 'explanation', 'aria-label': 'What changed' }, c.explanation.map(function (line) { return el('li', { text: line }); })));
      if (c.unexplained.length) body.appendChild(el('p', { class: 'help', text: 'Outlined dashed red: the changed regions the words above do not explain. Look at them before you approve.' }));
      body.appendChild(viewer(c, state));
      signals(c).forEach(function (part) { body.appendChild(part); });
    }
    renderBody();
    article.appendChild(body);
    article.addEventListener('click', function () { if (current !== index) select(index, true); });
    return article;
  }

  function select(index, quiet) {
    if (index < 0 || index >= articles.length) return;
    if (current >= 0) { articles[current].classList.remove('current'); articles[current].removeAttribute('aria-current'); }
    current = index;
    articles[index].classList.add('current');
    articles[index].setAttribute('aria-current', 'true');
    if (!quiet) { articles[index].focus({ preventScroll: true }); articles[index].scrollIntoView({ block: 'start' }); }
  }

  var header = document.querySelector('header.top');
  if (!model.run) {
    main.appendChild(el('div', { class: 'empty', role: 'status', text: model.message }));
    return;
  }
  header.appendChild(el('p', { text: model.run.title }));
  header.appendChild(el('p', { text: model.run.counts }));
  header.appendChild(el('p', { class: 'help' }, [el('kbd', { text: 'j' }), document.createTextNode(' / '), el('kbd', { text: 'k' }), document.createTextNode(' next / previous · '), el('kbd', { text: 'a' }), document.createTextNode(' approve · '), el('kbd', { text: 'r' }), document.createTextNode(' reject')]));
  if (!model.entries.length) {
    main.appendChild(el('div', { class: 'empty', role: 'status', text: 'Nothing to review: all ' + model.run.unchanged + ' checkpoints of this run are unchanged.' }));
    return;
  }
  model.entries.forEach(function (entry, i) { var a = entryView(entry, i); articles.push(a); main.appendChild(a); });
  select(0, true);
  document.addEventListener('keydown', function (event) {
    if (event.target && /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName)) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var key = event.key;
    if (key === 'j' || key === 'ArrowDown') select(current + 1);
    else if (key === 'k' || key === 'ArrowUp') select(current - 1);
    else if (key === 'a') articles[current].decide('approved');
    else if (key === 'r') articles[current].decide('rejected');
    else return;
    event.preventDefault();
  });
})();
`;

/** JSON inside a script element: `<` escaped, so no string in it can close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

export function reviewPage(model: ReviewModel, nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>visual-uat review</title>
<style>${STYLE}</style></head>
<body><header class="top"><h1>visual-uat review</h1></header><main></main>
<script type="application/json" id="review-data">${scriptJson(model)}</script>
<script nonce="${nonce}">${SCRIPT}</script>
</body></html>
`;
}
