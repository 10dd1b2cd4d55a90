import { after, before, describe } from 'node:test';
import { storeBackends } from '../../support/store-backends.js';
import { documentCases } from './search-cases/documents.js';
import { gatewaySearchCases } from './search-cases/gateway.js';
import { rankingCases } from './search-cases/ranking.js';
import { vectorCases } from './search-cases/vectors.js';

// ctx.store.search: one suite run on each back end, since a plugin's search must behave the
// same on both (PostgreSQL's run is skipped, with one line, where it is not installed).
for (const backend of storeBackends()) {
  describe(`search on ${backend.name}`, { skip: backend.skip }, () => {
    before(() => backend.start());
    after(() => backend.stop());
    documentCases(backend);
    rankingCases(backend);
    vectorCases(backend);
    gatewaySearchCases(backend);
  });
}
