// Makes a class folder for the least-connections lesson, as a teacher would download it: one folder per
// student (a repository with balancer.py or balancer.js somewhere in it), some one-file submissions, and
// the submissions that must not stop a grade run (no file, a syntax error, binary junk, a 50 MB file, a link
// out of the folder, a hang, a spin, a fork bomb, a flood of logging). The programs are the real-style
// corpus (test/fixtures/real-style, whose headers state the truth about each) and the hostile fixtures.
//
// Used by test/node/grade.test.ts and scripts/bench-grade.mjs.
//   makeClass(dir, { correct, mistaken, hostile, special }) → [{ student, expect }]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REAL = path.join(ROOT, 'test/fixtures/real-style/least-connections');
const HOSTILE = path.join(ROOT, 'test/fixtures/hostile/programs');

/** The real-style programs with the verdict their header states; random and rotating ones left out (their mistakes vary). */
export function corpus() {
  const out = [];
  for (const language of ['python', 'javascript']) {
    for (const name of fs.readdirSync(path.join(REAL, language)).sort()) {
      const file = path.join(REAL, language, name);
      const head = fs.readFileSync(file, 'utf8').split('\n').slice(0, 8).join('\n');
      const mistakes = /expect-mistakes: (.*)/.exec(head)?.[1].trim();
      // A program with an expected problem (line endings, …) is neither correct nor a named mistake here.
      if (
        !mistakes ||
        /expect-behaviour/.test(head) ||
        /expect-unrecognised/.test(head) ||
        /expect-problems/.test(head) ||
        mistakes === '(unnamed)'
      )
        continue;
      out.push({ file, language, mistakes: mistakes === 'none' ? [] : mistakes.split(/,\s*/) });
    }
  }
  return out;
}

const STARTER = { python: 'balancer.py', javascript: 'balancer.js' };

function studentRepo(dir, student, source, language, nested) {
  const repo = path.join(dir, student);
  const where = nested ? path.join(repo, 'src') : repo;
  fs.mkdirSync(where, { recursive: true });
  fs.writeFileSync(path.join(repo, 'README.md'), `# ${student}'s least-connections balancer\n`);
  fs.writeFileSync(path.join(where, STARTER[language]), source);
  return repo;
}

/**
 * Writes the class into `dir`. `correct` and `mistaken` programs cycle through the corpus; `hostile` cycles
 * through hang, spin, fork bomb and flood; `special` adds one of each file that is not checked (and a syntax error).
 */
export function makeClass(dir, { correct = 4, mistaken = 4, hostile = 2, special = true } = {}) {
  fs.mkdirSync(dir, { recursive: true });
  const programs = corpus();
  const right = programs.filter((p) => p.mistakes.length === 0);
  const wrong = programs.filter((p) => p.mistakes.length > 0);
  const students = [];
  let n = 0;
  const name = (kind) => `${kind}-${String(++n).padStart(3, '0')}`;
  for (let i = 0; i < correct; i++) {
    const p = right[i % right.length];
    const student = name('correct');
    // Every third one hands in a single file rather than a repository.
    if (i % 3 === 2) fs.copyFileSync(p.file, path.join(dir, `${student}${path.extname(p.file)}`));
    else studentRepo(dir, student, fs.readFileSync(p.file, 'utf8'), p.language, i % 2 === 1);
    students.push({ student, expect: { status: 'pass', mistakes: [] } });
  }
  for (let i = 0; i < mistaken; i++) {
    const p = wrong[i % wrong.length];
    const student = name('mistaken');
    studentRepo(dir, student, fs.readFileSync(p.file, 'utf8'), p.language, i % 2 === 0);
    students.push({ student, expect: { status: 'fail', mistakes: p.mistakes } });
  }
  const hostiles = [
    ['sleeps-forever.py', { stoppedAnswering: true }],
    ['spins.py', { stoppedAnswering: true }],
    ['fork-bomb.py', {}],
    ['floods-stderr.py', { status: 'pass' }],
  ];
  for (let i = 0; i < hostile; i++) {
    const [file, expect] = hostiles[i % hostiles.length];
    const student = name(`hostile-${file.replace(/\..*/, '')}`);
    studentRepo(dir, student, fs.readFileSync(path.join(HOSTILE, file), 'utf8'), 'python', false);
    students.push({ student, expect });
  }
  if (special) {
    const empty = name('no-file');
    fs.mkdirSync(path.join(dir, empty));
    fs.writeFileSync(path.join(dir, empty, 'notes.txt'), 'I did not finish\n');
    students.push({ student: empty, expect: { status: 'missing' } });

    const syntax = name('syntax-error');
    studentRepo(dir, syntax, 'def pick(self:\n    return None\n', 'python', false);
    students.push({ student: syntax, expect: { status: 'error' } });

    const junk = name('binary-junk');
    const bytes = Buffer.alloc(4096);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 256;
    fs.mkdirSync(path.join(dir, junk));
    fs.writeFileSync(path.join(dir, junk, 'balancer.py'), bytes);
    students.push({ student: junk, expect: { status: 'refused' } });

    const huge = name('fifty-megabytes');
    fs.mkdirSync(path.join(dir, huge));
    fs.writeFileSync(path.join(dir, huge, 'balancer.py'), `# ${'x'.repeat(1023)}\n`.repeat(50 * 1024));
    students.push({ student: huge, expect: { status: 'refused' } });

    const link = name('links-out');
    fs.mkdirSync(path.join(dir, link));
    fs.symlinkSync('/etc/passwd', path.join(dir, link, 'balancer.py'));
    students.push({ student: link, expect: { status: 'refused' } });
  }
  return students;
}
