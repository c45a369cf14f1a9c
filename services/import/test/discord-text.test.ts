import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mentionToken } from '../src/source/mention-token.ts';
import { convertText } from '../src/sources/discord/text.ts';

const context = { channelName: (id: string) => (id === '5' ? 'general' : undefined) };
const ann = { id: '1', name: 'ann', nickname: 'Ann' };
const annLee = { id: '2', name: 'annlee', nickname: 'Ann Lee' };

describe('convertText (Discord content to Markdown)', () => {
  it('reads the raw tokens the exporter writes without markdown formatting', () => {
    assert.equal(
      convertText('<@1> <@!2> <@&9> in <#5> and <#6> <:blob:77> <a:spin:78>', [], context),
      `${mentionToken('1')} ${mentionToken('2')} @role in #general and #deleted-channel :blob: :spin:`,
    );
    assert.equal(
      convertText('due <t:0:R>, or <t:86400>', [], context),
      'due 1970-01-01T00:00:00Z, or 1970-01-02T00:00:00Z',
    );
  });

  it('reads shown names of mentioned people, the longest first, and only whole names', () => {
    assert.equal(
      convertText('@Ann Lee and @Ann, not @Annabel nor @ann_b; @annlee too', [ann, annLee], context),
      `${mentionToken('2')} and ${mentionToken('1')}, not @Annabel nor @ann_b; ${mentionToken('2')} too`,
    );
    assert.equal(convertText('@Ann', [], context), '@Ann', 'a name nobody was mentioned by stays text');
  });

  it('turns @everyone into @all and leaves @here and Markdown alone', () => {
    assert.equal(
      convertText('**@everyone** @here `code` ||spoiler||', [], context),
      '**@all** @here `code` ||spoiler||',
    );
  });
});
