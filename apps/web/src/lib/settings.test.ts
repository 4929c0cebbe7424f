import { describe, expect, it } from 'vitest';
import { parseSettingsScript } from './settings';

const settings = {
  apiBaseUrl: '/api/',
  oidc: { authority: 'http://localhost/oidc', clientId: 'portal-web', scope: 'openid profile' },
  environment: { name: 'Local', color: '#6a1b9a', html: '<p>demo \u003c/script></p>' },
  maintenance: true,
  supportPhone: '+47 22 00 00 00',
  companyText: 'Scrubber Fleet Monitoring',
  traceSampleRate: 0.3,
};

describe('parseSettingsScript', () => {
  it("reads the server's settings script without evaluating it", () => {
    const script = `window.settings = ${JSON.stringify(settings).replace(/</g, '\\u003c')};\n`;
    expect(parseSettingsScript(script)).toEqual(settings);
  });

  it('refuses anything that is not the settings assignment', () => {
    expect(parseSettingsScript('alert(1); window.settings = {}')).toBeNull();
    expect(parseSettingsScript('window.settings = (function(){ return {} })();')).toBeNull();
    expect(
      parseSettingsScript(`window.settings = ${JSON.stringify({ ...settings, maintenance: 'yes' })};`),
    ).toBeNull();
    expect(parseSettingsScript('<html>502 Bad Gateway</html>')).toBeNull();
  });
});
