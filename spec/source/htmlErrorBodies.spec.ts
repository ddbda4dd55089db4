import fc from 'fast-check';
import { lastValueFrom, toArray } from 'rxjs';
import { toSseResponse } from '../../src/relay/sse/toSseStream';
import { toUIMessageStreamResponse } from '../../src/relay/ui/toUIMessageStream';
import { bodyExcerpt, textOfHtml } from '../../src/source/excerpt';
import { streamEvents } from '../../src/streamEvents';

// Provider error bodies that reach a browser (the relay's `failed` event, the UI message
// stream's errorText) or a chat are text: an HTML error page is named by its status and title,
// or its text stripped of markup, never passed on as markup.

const NGINX_502 = `<html>
<head><title>502 Bad Gateway</title></head>
<body>
<center><h1>502 Bad Gateway</h1></center>
<hr><center>nginx/1.25.3</center>
</body>
</html>
`;

const CLOUDFLARE_LIKE = `<!DOCTYPE html>
<!--[if lt IE 7]> <html class="no-js ie6 oldie" lang="en-US"> <![endif]-->
<html lang="en-US"><head><style>body{color:red}</style><script>var x = "<b>no</b>";</script></head>
<body><div><h1>Error&nbsp;524</h1><p>A timeout occurred &amp; the origin did not answer.</p></div></body></html>`;

const answer = (body: string, status: number) =>
  new Response(body, { status, headers: { 'content-type': 'text/html' } });

async function failedMessageOf(response: Response): Promise<string> {
  const events = await lastValueFrom(streamEvents(response).pipe(toArray()));
  const last = events.at(-1)!;
  if (last.type !== 'failed') throw new Error(`expected failed, got ${last.type}`);
  return last.error.message;
}

describe('HTML error bodies are named, never passed on as markup', () => {
  it('a 502 page: its status and title', async () => {
    expect(await failedMessageOf(answer(NGINX_502, 502))).toBe(
      'The provider answered HTTP 502: an HTML page titled "502 Bad Gateway"',
    );
  });

  it('a page without a title: its text, without scripts, styles, comments or entities', async () => {
    expect(await failedMessageOf(answer(CLOUDFLARE_LIKE, 524))).toBe(
      'The provider answered HTTP 524: an HTML page reading "Error 524 A timeout occurred & the origin did not answer."',
    );
  });

  it('through the relay and the UI message stream: no markup reaches the browser', async () => {
    const relayed = await toSseResponse(streamEvents(answer(NGINX_502, 502))).text();
    expect(relayed).toContain(
      '"code":"http-error","message":"The provider answered HTTP 502: an HTML page titled \\"502 Bad Gateway\\""',
    );
    const ui = await toUIMessageStreamResponse(streamEvents(answer(NGINX_502, 502))).text();
    const errorText = /"errorText":"((?:[^"\\]|\\.)*)"/.exec(ui)?.[1];
    expect(errorText).toBe(
      'http-error: The provider answered HTTP 502: an HTML page titled \\"502 Bad Gateway\\"',
    );
    for (const wire of [relayed, ui])
      expect(wire).not.toMatch(/<\/?(html|head|title|body|center|h1)\b/i);
  });

  it('a JSON or plain-text body keeps its excerpt', () => {
    expect(bodyExcerpt('upstream connect error')).toBe('"upstream connect error"');
    expect(bodyExcerpt('a < b and c > d')).toBe('"a < b and c > d"');
  });

  it('property: the text of any page holds no tag', () => {
    const tag = fc.constantFrom(
      '<p>',
      '</p>',
      '<b class="x">',
      '<br/>',
      '<!-- c -->',
      '<script>s</script>',
    );
    fc.assert(
      fc.property(
        fc.array(fc.oneof(tag, fc.stringMatching(/^[a-z ]{0,8}$/)), { maxLength: 20 }),
        (parts) => {
          const text = textOfHtml(`<html><body>${parts.join('')}</body></html>`);
          expect(text).not.toMatch(/<\/?[a-z!][^>]*>/i);
          expect(bodyExcerpt(`<!doctype html>${parts.join('')}`)).not.toMatch(/<\/?[a-z!][^>]*>/i);
        },
      ),
    );
  });
});
