/**
 * Reading a student's artifact back (core grade/artifact): every field checked for its type, the source it
 * carries given only under a starter's name, the verdict kept only as what was reported; anything else a
 * sentence, never an exception. And which repository a download folder stands for.
 */
import * as assert from 'node:assert/strict';
import { parseArtifact } from '../../src/core/grade/artifact';
import { repositoryMatches } from '../../src/node/grade/collect';

const NAMES = ['balancer.py', 'balancer.js'];
const good = {
  format: 1,
  repository: 'org/lb-amy',
  commit: 'c0ffee',
  source: { file: 'src/balancer.py', text: 'print(1)\n' },
  report: { status: 'pass', checks: { passed: 3, total: 3 } },
};
const parse = (data: unknown): ReturnType<typeof parseArtifact> => parseArtifact(JSON.stringify(data), NAMES);

describe('grade --collect: an artifact read back', () => {
  it('gives the repository, commit, source (by its base name) and the reported verdict', () => {
    assert.deepEqual(parse(good), {
      repository: 'org/lb-amy',
      commit: 'c0ffee',
      source: { name: 'balancer.py', text: 'print(1)\n' },
      reported: { status: 'pass', passed: 3, total: 3 },
    });
    assert.deepEqual(parse({ ...good, source: null, report: 'x' }), {
      repository: 'org/lb-amy',
      commit: 'c0ffee',
      source: null,
      reported: null,
    });
  });

  it('says what is wrong with a malformed one', () => {
    assert.equal(parse({ ...good, repository: 12 }), '"repository" is 12, not a repository\'s name');
    assert.equal(parse({ ...good, commit: ['x'] }), '"commit" is ["x"], not a commit');
    assert.equal(parse({ ...good, format: 2 }), 'format 2, not 1');
    assert.equal(parse([1]), 'not an object');
    assert.match(parseArtifact('{', NAMES) as string, /^not JSON/);
    assert.match(parseArtifact(new Error('EACCES'), NAMES) as string, /cannot be read: EACCES/);
    assert.equal(
      parse({ ...good, source: { file: '../../.bashrc', text: 'x' } }),
      '"source" is ".bashrc", not balancer.py or balancer.js',
    );
    assert.equal(parse({ ...good, source: { file: 'balancer.py', text: 'a\u0000b' } }), '"source" is not text');
    assert.equal(parse({ ...good, source: { file: 'balancer.py' } }), '"source" is not { file, text }');
  });

  it('a folder stands for its repository, by name or as <assignment>-<student>', () => {
    assert.ok(repositoryMatches('org/lb-amy', 'lb-amy'));
    assert.ok(repositoryMatches('org/lb-amy', 'amy'));
    assert.ok(!repositoryMatches('org/lb-amy', 'lb-bob'));
    assert.ok(!repositoryMatches('org/lb-amy', 'my'), 'a suffix of the name is not the student');
  });
});
