/**
 * SEC-10 (issue 14, item 7): files shared with anyone who has the link by a Google Drive, Dropbox,
 * Box or OneDrive/SharePoint module, or by their sharing APIs through the HTTP app. A share with a
 * named user, group, domain, team or organisation, or behind a password, is not public.
 * Google Drive and Dropbox module ids and mapper keys are those of public Make exports; the Box and
 * OneDrive ones follow Make's naming of their documented modules ("Add a Shared Link to a File",
 * "Create a sharing link") and carry the vendors' API field names.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bp, breakHandler, m } from '../../helpers/blueprints.js';
import { failingIds, passes, violationOf } from '../../helpers/policy-assert.js';

const trigger = m(1, 'google-drive:watchFilesInAFolder', {
  parameters: { __IMTCONN__: 4410, folder: '/Contracts', limit: 10 },
});
const driveShare = (id: number, mapper: Record<string, unknown>) =>
  m(id, 'google-drive:shareAFileFolder', {
    version: 4,
    parameters: { __IMTCONN__: 4410 },
    mapper: { select: 'file', destination: 'drive', file: '{{1.id}}', ...mapper },
    onerror: breakHandler(id + 100),
  });
const dropboxLink = (id: number, mapper: Record<string, unknown>) =>
  m(id, 'dropbox:createShareLink', {
    version: 5,
    parameters: { __IMTCONN__: 7553318 },
    mapper: { path: '/Reports/{{1.name}}', ...mapper },
    onerror: breakHandler(id + 100),
  });
const boxLink = (id: number, mapper: Record<string, unknown>) =>
  m(id, 'box:addASharedLinkToAFile', {
    parameters: { __IMTCONN__: 12 },
    mapper: { file: '{{1.id}}', ...mapper },
    onerror: breakHandler(id + 100),
  });
const onedriveLink = (id: number, mapper: Record<string, unknown>) =>
  m(id, 'onedrive:createASharingLink', {
    parameters: { __IMTCONN__: 13 },
    mapper: { item: '{{1.id}}', ...mapper },
    onerror: breakHandler(id + 100),
  });
const severities = (blueprint: unknown) =>
  violationOf(blueprint, 'SEC-10')!.failing_modules.map((f) => `${f.module_id}:${f.severity}`);

describe('SEC-10 file shared publicly', () => {
  it('reports a Drive folder created with its share switch on for anyone (high, editable said in the reason), not one created unshared or shared with a user', () => {
    const folder = (id: number, mapper: Record<string, unknown>) =>
      m(id, 'google-drive:createAFolder', {
        version: 4,
        parameters: { __IMTCONN__: 4410 },
        mapper: { name: '{{1.name}}', folderId: '/1gvP', destination: 'drive', ...mapper },
        onerror: breakHandler(id + 100),
      });
    const blueprint = bp([
      trigger,
      folder(2, { shared: true, type: 'anyone', role: 'writer' }),
      folder(3, { shared: false, type: 'anyone', role: 'writer' }),
      folder(4, { shared: true, type: 'user', role: 'writer', emailAddress: 'a@example.com' }),
      folder(5, {}),
    ]);
    assert.deepEqual(severities(blueprint), ['2:high']);
    assert.match(violationOf(blueprint, 'SEC-10')!.failing_modules[0]!.reason, /link holders may edit/);
  });

  it('reports Drive shares with anyone (editable ones too), Dropbox public or default links, Box open links and anonymous OneDrive links', () => {
    const blueprint = bp([
      trigger,
      driveShare(2, { type: 'anyone', role: 'reader', allowFileDiscovery: false }),
      driveShare(3, { type: 'anyone', role: 'writer' }),
      dropboxLink(4, { settings: { audience: 'public', access: 'viewer' } }),
      dropboxLink(5, { settings: {} }),
      boxLink(6, { access: 'open' }),
      onedriveLink(7, { type: 'view', scope: 'anonymous' }),
    ]);
    assert.deepEqual(failingIds(blueprint, 'SEC-10'), ['2', '3', '4', '5', '6', '7']);
    assert.deepEqual(severities(blueprint), ['2:high', '3:high', '4:high', '5:medium', '6:high', '7:high']);
    const v = violationOf(blueprint, 'SEC-10')!;
    assert.equal(v.failing_modules[0]!.evidence?.pointer, '/flow/1/mapper/type');
    assert.match(v.failing_modules[3]!.reason, /default audience/);
  });

  it('says when a public Drive item is discoverable', () => {
    const v = violationOf(
      bp([trigger, driveShare(2, { type: 'anyone', role: 'reader', allowFileDiscovery: true })]),
      'SEC-10',
    )!;
    assert.match(v.failing_modules[0]!.reason, /discoverable/);
  });

  it('reports the same calls made through the HTTP app', () => {
    const drive = m(2, 'http:ActionSendDataOAuth', {
      version: 3,
      parameters: { __IMTCONN__: 4410 },
      mapper: {
        url: 'https://www.googleapis.com/drive/v3/files/{{1.id}}/permissions',
        method: 'post',
        bodyType: 'raw',
        contentType: 'application/json',
        data: '{"role": "reader", "type": "anyone"}',
      },
      onerror: breakHandler(102),
    });
    const dropbox = m(3, 'http:ActionSendData', {
      version: 3,
      mapper: {
        url: 'https://api.dropboxapi.com/2/sharing/create_shared_link_with_settings',
        method: 'post',
        headers: [{ name: 'Authorization', value: 'Bearer {{9.value}}' }],
        data: '{"path": "/x.pdf", "settings": {"audience": "public"}}',
      },
      onerror: breakHandler(103),
    });
    assert.deepEqual(failingIds(bp([trigger, drive, dropbox]), 'SEC-10'), ['2', '3']);
  });

  it('passes shares with a named user, a group, the domain or the team, password-protected links, run-time audiences and non-share modules', () => {
    passes(
      bp([
        trigger,
        driveShare(2, {
          type: 'user',
          role: 'reader',
          emailAddress: '{{1.owners[].emailAddress}}',
          sendNotificationEmail: true,
        }),
        driveShare(3, { type: 'group', role: 'writer', emailAddress: 'finance@example.com' }),
        driveShare(4, { type: 'domain', role: 'reader', domain: 'example.com', allowFileDiscovery: true }),
        driveShare(5, { type: '{{1.shareType}}', role: 'reader' }),
        dropboxLink(6, { settings: { audience: 'team' } }),
        dropboxLink(7, {
          settings: { audience: 'public', link_password: '{{9.value}}', expires: '{{addDays(now; 7)}}' },
        }),
        boxLink(8, { access: 'company' }),
        onedriveLink(9, { type: 'view', scope: 'organization' }),
        m(10, 'dropbox:listSharedLinks', {
          parameters: { __IMTCONN__: 7553318 },
          mapper: { path: '/Reports' },
          onerror: breakHandler(110),
        }),
        m(11, 'google-drive:uploadAFile', {
          version: 4,
          parameters: { __IMTCONN__: 4410 },
          mapper: {
            select: 'value',
            title: '{{1.name}}',
            data: '{{1.data}}',
            folderId: '/Archive',
            destination: 'drive',
          },
          onerror: breakHandler(111),
        }),
        m(12, 'http:ActionSendData', {
          version: 3,
          mapper: {
            url: 'https://www.googleapis.com/drive/v3/files/{{1.id}}/permissions',
            method: 'post',
            data: '{"role": "reader", "type": "user", "emailAddress": "a@example.com"}',
          },
          onerror: breakHandler(112),
        }),
      ]),
      'SEC-10',
    );
  });
});
