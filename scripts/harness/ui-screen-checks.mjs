// What the lesson panel says against what it shows (issue 30's "tests that look at the screen"): readPanel()
// reads, in the webview, every card's own sentences beside its visible table, the under-load section's sentence
// beside its visible chart and tables, and the top bar's boxes; panelProblems() judges that reading in Node and
// returns each disagreement as a sentence. Visible means what innerText gives: folded <details> and hidden
// elements are left out, and a sentence never counts as the evidence for its own numbers.

/** Reads the panel (plain data, judged by panelProblems). */
export async function readPanel(wv) {
  return wv.locator('body').evaluate(() => {
    const text = (el) => (el ? (el.innerText ?? '').replace(/\u00a0/g, ' ').trim() : '');
    // A sentence as written: its <code> spans in backticks again, so the `names` it quotes are checked.
    const written = (el) => {
      if (!el) return '';
      const copy = el.cloneNode(true);
      for (const code of copy.querySelectorAll('code')) code.textContent = `\`${code.textContent}\``;
      copy.style.display = 'block';
      el.after(copy);
      const out = text(copy);
      copy.remove();
      return out;
    };
    // Backticks a reader sees: code the panel did not render as code.
    const rawTicks = (el) => [...text(el).matchAll(/`[^`\n]+`/g)].map((m) => m[0]);
    const readTable = (table) =>
      [...(table?.querySelectorAll('tbody tr') ?? [])].map((tr) => {
        const cells = [...tr.children].map((td) => text(td));
        return {
          preamble: tr.classList.contains('preamble'),
          command: text(tr.querySelector('td.command')),
          actual: text(tr.children[3]?.querySelector('code')),
          cells,
        };
      });
    const cards = [...document.querySelectorAll('#results .card')].map((card) => {
      const table = card.querySelector('table.trace');
      // The title as the editor says it: without the icon, and "(likely)" for the badge.
      const h3 = card.querySelector('h3')?.cloneNode(true);
      h3?.querySelector('.icon')?.remove();
      const likely = h3?.querySelector('.badge');
      likely?.remove();
      return {
        id: card.id.replace(/^mistake-/, ''),
        headline: `${text(h3) || ''}${likely ? ' (likely)' : ''}`,
        where: text(card.querySelector('p.where')),
        kind: card.classList.contains('mistake') ? 'mistake' : card.classList.contains('problem') ? 'problem' : 'trace',
        title: text(card.querySelector('h3')) || text(card.querySelector('.trace-caption')),
        sentences: [
          ...card.querySelectorAll(
            'p.where, p.evidence, p.behaviour, p.trace-note, p.trace-caption, :scope > p:not([class]), p.advice',
          ),
        ].map((p) => ({ kind: p.className.split(' ')[0] || 'message', text: written(p) })),
        rawTicks: rawTicks(card),
        // Columns of its table hidden to the right, behind a scrollbar.
        tableHidden: (() => {
          const wrap = card.querySelector('.trace-wrap');
          return wrap && wrap.getClientRects().length ? wrap.scrollWidth - wrap.clientWidth : 0;
        })(),
        revealed: [...text(card.querySelector('p.revealed')).matchAll(/“([^”]*)”/g)].map((m) => m[1]),
        rows: readTable(table),
        tableText: text(table),
      };
    });
    const figure = document.querySelector('#under-load figure.simulation');
    let underLoad = null;
    if (figure) {
      // The figure as a reader sees it, without its own sentence.
      const sentenceEl = figure.querySelector('#simulation-sentence');
      const shown = text(figure);
      const sentence = text(sentenceEl);
      // Chart labels that touch a mark of their own chart: a line's segments (sampled) or a bar, in screen pixels.
      const touching = [...figure.querySelectorAll('.cell')].flatMap((cell) => {
        const label = cell.querySelector('.cell-label');
        const chart = cell.querySelector('svg.chart');
        if (!label || !chart || !chart.getScreenCTM()) return [];
        const r = label.getBoundingClientRect();
        const inLabel = (x, y) => x >= r.left - 1 && x <= r.right + 1 && y >= r.top - 1 && y <= r.bottom + 1;
        const m = chart.getScreenCTM();
        for (const line of chart.querySelectorAll('polyline')) {
          const pts = [...line.points].map((p) => new DOMPoint(p.x, p.y).matrixTransform(m));
          for (let i = 0; i + 1 < pts.length; i++)
            for (let k = 0; k <= 10; k++) {
              const x = pts[i].x + ((pts[i + 1].x - pts[i].x) * k) / 10;
              const y = pts[i].y + ((pts[i + 1].y - pts[i].y) * k) / 10;
              if (inLabel(x, y)) return [text(label)];
            }
        }
        for (const bar of chart.querySelectorAll('rect.bar')) {
          const b = bar.getBoundingClientRect();
          if (b.left < r.right + 1 && b.right > r.left - 1 && b.top < r.bottom + 1) return [text(label)];
        }
        return [];
      });
      underLoad = {
        touching,
        sentence,
        shown: shown.replace(sentence, ''),
        stale: figure.classList.contains('stale'),
        foldedTicks: !figure.querySelector('details.every-number')?.open,
        rawTicks: rawTicks(figure),
      };
    }
    const bar = document.querySelector('.topbar');
    const boxes = bar
      ? [bar, ...bar.querySelectorAll('.last-verdict, .progress, .progress-part')].map((el) => ({
          name: el === bar ? 'bar' : el.className.split(' ').find((c) => c !== 'link') || el.tagName,
          scrollWidth: el.scrollWidth,
          clientWidth: el.clientWidth,
          right: Math.round(el.getBoundingClientRect().right),
          barRight: Math.round(bar.getBoundingClientRect().right),
          shown:
            el.getBoundingClientRect().height > 0 &&
            el.getBoundingClientRect().top < bar.getBoundingClientRect().bottom,
          ellipsis: getComputedStyle(el).textOverflow === 'ellipsis',
          title: el.getAttribute('title') ?? '',
          text: text(el.querySelector('.summary') ?? el),
        }))
      : [];
    return {
      width: window.innerWidth,
      height: window.innerHeight,
      verdict: text(document.querySelector('#results .verdict .summary')),
      details: text(document.querySelector('#results .details-line')),
      legend: text(document.querySelector('#results .counts-legend')),
      barVerdict: text(document.querySelector('.topbar .last-verdict .summary')),
      cards,
      underLoad,
      boxes,
    };
  });
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A number as a token: not part of a longer number. */
const hasNumber = (haystack, n) => new RegExp(`(?<!\\d)${n}(?!\\d)`).test(haystack);

// What a sentence may say without the table showing it: transcript names in quotes, line numbers (the editor
// shows those; checked against the squiggle), "command N (X)" (checked against row N), a random test's number.
const QUOTED = /“[^”]*”|"[^"]*"/g;
const LINE_REFS = /\b[Ll]ines? \d+(?:–\d+)?(?:(?:, | and )\d+(?:–\d+)?)*/g;
const COMMAND_REF = /\bcommand (\d+) \(((?:[^()]|\([^()]*\))*)\)/g;
const OTHER_RUN = /\bin (?:the whole of )?“[^”]*”, not the (?:shortened )?(?:table below|lesson panel's table), /;

/** The numbers and `names` a part of a sentence states, once the parts it may state freely are taken out. */
function claims(part) {
  const names = [...part.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  const rest = part
    .replace(/`[^`]+`/g, ' ')
    .replace(QUOTED, ' ')
    .replace(COMMAND_REF, ' ')
    .replace(LINE_REFS, ' ')
    .replace(/\(#\d+\)|#\d+/g, ' ')
    .replace(/\bRow 0\b/g, ' ');
  return { names, numbers: [...rest.matchAll(/(?<![\w.])-?(\d+)(?![\w])/g)].map((m) => m[1]) };
}

/** The panel's totals: "12 of 16 hidden transcripts pass", "Also 40 random tests: …". */
function totals(screen) {
  const hidden = /of (\d+) hidden transcripts?/.exec(screen.verdict) ?? /All (\d+) hidden/.exec(screen.verdict);
  const random = /(\d+) random tests?/.exec(screen.details);
  return { hidden: hidden ? Number(hidden[1]) : undefined, random: random ? Number(random[1]) : undefined };
}

/** The transcript a table on screen comes from, by its caption: “ties follow pool order”, a random test (#24). */
function commandRefProblems(card, sentence, screen, problems) {
  const rows = card.rows.filter((r) => !r.preamble);
  let refs = 0;
  for (const m of sentence.matchAll(/\bcommand (\d+)\b( \(((?:[^()]|\([^()]*\))*)\))?( of [“"]([^”"]*)[”"])?/g)) {
    refs++;
    const [, n, , command, , other] = m;
    if (other !== undefined) {
      // A row of another transcript: no card says one (issue 30); it names the transcript and the command only.
      problems.push(
        `${card.title}: "command ${n}${command ? ` (${command})` : ''}" is a row of “${other}”, not of a table on screen: ${sentence}`,
      );
      continue;
    }
    if (command === undefined) {
      problems.push(`${card.title}: a "command ${n}" with no command: ${sentence}`);
      continue;
    }
    const row = rows[Number(n) - 1];
    if (!row) problems.push(`${card.title}: "command ${n} (${command})", but its table has no row ${n}`);
    else if (row.command !== command)
      problems.push(`${card.title}: "command ${n} (${command})", but row ${n} holds ${row.command}`);
  }
  if (/\bRow 0\b/.test(sentence) && !card.rows.some((r) => r.preamble))
    problems.push(`${card.title}: "Row 0", but its table has no row 0`);
  return refs;
}

/** A mistake card's evidence sentence: "Seen at N commands in A of B hidden transcripts and C of D random tests". */
function evidenceProblems(card, sentence, screen, problems) {
  const { hidden, random } = totals(screen);
  const h = /(\d+) of (\d+) hidden transcripts?/.exec(sentence);
  const r = /(\d+) of (\d+) random tests?/.exec(sentence);
  if (h && hidden !== undefined && Number(h[2]) !== hidden)
    problems.push(`${card.title}: "${h[0]}", but the verdict counts ${hidden} hidden transcripts`);
  if (r && random !== undefined && Number(r[2]) !== random)
    problems.push(`${card.title}: "${r[0]}", but the panel says ${random} random tests`);
  // "“40 mixed commands (3 transcripts)”" counts 3.
  const listed = card.revealed.reduce((n, l) => n + Number(/\((\d+) transcripts\)$/.exec(l)?.[1] ?? 1), 0);
  if (h && card.revealed.length > 0 && Number(h[1]) !== listed)
    problems.push(`${card.title}: "${h[0]}", but "Shown by" lists ${listed}: ${card.revealed.join(' | ')}`);
}

function cardProblems(card, screen, problems) {
  let refs = 0;
  for (const tick of card.rawTicks) problems.push(`${card.title}: shows ${tick} with its backticks, not as code`);
  if (card.tableHidden > 1)
    problems.push(`${card.title}: its table is wider than the panel (${card.tableHidden} px hidden to the right)`);
  const rows = card.rows.filter((r) => !r.preamble);
  for (const { kind, text } of card.sentences) {
    refs += commandRefProblems(card, text, screen, problems);
    if (card.kind === 'problem') continue; // a problem's sentence is about a transcript it names, with no table
    if (kind === 'evidence') {
      evidenceProblems(card, text, screen, problems);
      continue;
    }
    if (kind === 'trace-caption') {
      const length = /\((\d+)(?: of \d+)? commands?\b/.exec(text);
      if (length && Number(length[1]) !== rows.length)
        problems.push(`${card.title}: the caption says ${length[1]} commands, its table shows ${rows.length}`);
      continue;
    }
    // A reason about another transcript names it first: from there on it is not about this table.
    const other = OTHER_RUN.exec(text);
    const aboutTable = other ? text.slice(0, other.index) : text;
    const { names, numbers } = claims(aboutTable);
    for (const name of names)
      if (!card.tableText.includes(name))
        problems.push(`${card.title}: \`${name}\` is not in its table (${kind}: ${text})`);
    for (const n of numbers)
      if (!hasNumber(card.tableText, n)) problems.push(`${card.title}: ${n} is not in its table (${kind}: ${text})`);
    // "at command N (X) in the table below, … answered Y": Y is row N's answer, all of it ("ERROR KeyError").
    const at = /\bat command (\d+) \([^)]*\) in the table below\b/.exec(aboutTable);
    const answered = /\banswered ([^\s,;)]+)/.exec(aboutTable);
    const row = at ? rows[Number(at[1]) - 1] : undefined;
    if (answered && row && !new RegExp(`\\banswered ${escape(row.actual)}(?![^\\s,;)])`).test(aboutTable))
      problems.push(`${card.title}: says ${answered[0]} at row ${at[1]}, which shows ${row.actual}`);
  }
  return refs;
}

function underLoadProblems(u, screen, problems) {
  for (const tick of u?.rawTicks ?? []) problems.push(`under load: shows ${tick} with its backticks, not as code`);
  for (const label of u?.touching ?? [])
    problems.push(`under load: the chart label "${label}" touches its own line or bar`);
  if (!u || !u.sentence) return;
  // "Your check found “X”": X is a mistake the last check named, on a card on screen.
  const named = /Your check found “([^”]*)”/.exec(u.sentence);
  const titles = screen.cards.filter((c) => c.kind === 'mistake').map((c) => c.headline.replace(/ \(likely\)$/, ''));
  if (named && !titles.includes(named[1]))
    problems.push(
      `under load: the sentence says the check found “${named[1]}”, the cards are: ${titles.join(', ') || 'none'}`,
    );
  for (const n of claims(u.sentence).numbers)
    if (!hasNumber(u.shown, n)) problems.push(`under load: ${n} of the sentence is not on screen: ${u.sentence}`);
  for (const name of claims(u.sentence).names)
    if (!u.shown.includes(name)) problems.push(`under load: \`${name}\` of the sentence is not on screen`);
}

/** Nothing in the top bar clipped: a box wider than it shows only with an ellipsis and its whole text in a tooltip. */
function barProblems(screen, problems) {
  for (const box of screen.boxes) {
    if (!box.shown) continue;
    const clipped = box.scrollWidth > box.clientWidth + 1 || box.right > box.barRight + 1;
    if (!clipped) continue;
    if (box.name === 'bar' || !box.ellipsis || !box.title.includes(box.text))
      problems.push(
        `the top bar's ${box.name} is clipped (${box.scrollWidth} > ${box.clientWidth} px${box.ellipsis ? '' : ', no ellipsis'}${box.title.includes(box.text) ? '' : ', not all in its tooltip'}): "${box.text}"`,
      );
  }
  if (screen.barVerdict && screen.verdict && screen.barVerdict !== screen.verdict)
    problems.push(`the top bar says "${screen.barVerdict}", the results "${screen.verdict}"`);
}

/** Every disagreement between what the panel says and what it shows, as sentences; and what was looked at. */
export function panelProblems(screen) {
  const problems = [];
  let refs = 0;
  for (const card of screen.cards) refs += cardProblems(card, screen, problems);
  underLoadProblems(screen.underLoad, screen, problems);
  barProblems(screen, problems);
  return { problems, refs, cards: screen.cards.length, width: screen.width };
}
