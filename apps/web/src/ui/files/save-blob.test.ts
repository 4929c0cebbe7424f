import { afterEach, describe, expect, it, vi } from 'vitest';
import { SAVE_BLOB_REVOKE_MS, saveBlob } from './save-blob';

const { createObjectURL, revokeObjectURL } = URL;
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  Object.assign(URL, { createObjectURL, revokeObjectURL });
});

describe('saveBlob', () => {
  it('clicks a download link named after the file, removes it and frees the URL later', () => {
    vi.useFakeTimers();
    const create = vi.fn(() => 'blob:saved');
    const revoke = vi.fn();
    Object.assign(URL, { createObjectURL: create, revokeObjectURL: revoke });
    const clicked: { href: string; download: string; attached: boolean }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download, attached: document.body.contains(this) });
    });
    const blob = new Blob(['x']);

    saveBlob(blob, 'report.xlsx');

    expect(create).toHaveBeenCalledWith(blob);
    expect(clicked).toEqual([{ href: 'blob:saved', download: 'report.xlsx', attached: true }]);
    expect(document.querySelectorAll('a')).toHaveLength(0);
    expect(revoke).not.toHaveBeenCalled();
    vi.advanceTimersByTime(SAVE_BLOB_REVOKE_MS);
    expect(revoke).toHaveBeenCalledWith('blob:saved');
  });
});
