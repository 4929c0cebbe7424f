import { describe, expect, it } from 'vitest';
import { isOlderVersion, VersionedAnswers } from './cache';

describe('isOlderVersion', () => {
  it('compares counters as numbers, and joined versions part by part', () => {
    expect(isOlderVersion('9', '10')).toBe(true);
    expect(isOlderVersion('10', '9')).toBe(false);
    expect(isOlderVersion('10', '10')).toBe(false);
    expect(isOlderVersion('4|7', '5|7')).toBe(true);
    expect(isOlderVersion('5|6', '5|7')).toBe(true);
    // One part newer, the other older: not older (the newer answer replaces).
    expect(isOlderVersion('6|6', '5|7')).toBe(false);
    expect(isOlderVersion('5', '5|7')).toBe(false);
    expect(isOlderVersion('a', '7')).toBe(false);
  });
});

describe('VersionedAnswers', () => {
  const counted = () => {
    const made: string[] = [];
    const make = (answer: string) => () => {
      made.push(answer);
      return Promise.resolve(answer);
    };
    return { made, make };
  };

  it('keeps one answer per question: a newer version replaces the older one instead of sitting beside it', async () => {
    const answers = new VersionedAnswers<string>(100);
    const { made, make } = counted();
    for (let version = 1; version <= 50; version++) {
      expect(await answers.get('fleet, 2025', String(version), make(`answer ${version}`))).toBe(
        `answer ${version}`,
      );
      // Asked again at the same version: the kept answer.
      expect(await answers.get('fleet, 2025', String(version), make('again'))).toBe(`answer ${version}`);
    }
    expect(made).not.toContain('again');
    expect(answers.size).toBe(1);
    await answers.get('ship, 2025', '50', make('ship'));
    expect(answers.size).toBe(2);
  });

  it('shares an answer being made with the callers who ask the same question at the same version', async () => {
    const answers = new VersionedAnswers<string>(100);
    let finish!: (answer: string) => void;
    let made = 0;
    const make = () => {
      made++;
      return new Promise<string>((resolve) => (finish = resolve));
    };
    const first = answers.get('fleet', '3', make);
    const second = answers.get('fleet', '3', make);
    finish('the answer');
    expect(await Promise.all([first, second])).toEqual(['the answer', 'the answer']);
    expect(made).toBe(1);
  });

  it('makes an answer of an older version for its caller without replacing the newer one kept (a replica behind)', async () => {
    const answers = new VersionedAnswers<string>(100);
    const { made, make } = counted();
    await answers.get('fleet', '8', make('newer'));
    expect(await answers.get('fleet', '7', make('older'))).toBe('older');
    expect(await answers.get('fleet', '8', make('newer again'))).toBe('newer');
    expect(made).toEqual(['newer', 'older']);
  });

  it('forgets an answer that failed: the next caller makes it again', async () => {
    const answers = new VersionedAnswers<string>(100);
    await expect(answers.get('fleet', '1', () => Promise.reject(new Error('database gone')))).rejects.toThrow(
      'database gone',
    );
    expect(answers.size).toBe(0);
    expect(await answers.get('fleet', '1', () => Promise.resolve('made again'))).toBe('made again');
  });

  it('keeps nothing with no room (REPORT_DATA_CACHE_ENTRIES=0: every answer made afresh)', async () => {
    const answers = new VersionedAnswers<string>(0);
    const { made, make } = counted();
    await answers.get('fleet', '1', make('a'));
    await answers.get('fleet', '1', make('b'));
    expect(made).toEqual(['a', 'b']);
    expect(answers.size).toBe(0);
  });
});
