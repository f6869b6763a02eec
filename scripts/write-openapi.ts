/**
 * `npm run openapi`: writes docs/openapi.json, the OpenAPI description as the server serves it (with the
 * default public URL), for readers of the repository. A test fails when the file and the code disagree.
 */
import fs from "node:fs/promises";
import { describeApi } from "../src/api/app.ts";
import { OPENAPI_FILE, openApiFileText } from "../src/api/openapi.ts";
import { loadSettings } from "../src/settings.ts";

const document = await describeApi(loadSettings({ HARK_LOG_LEVEL: "silent" }));
await fs.writeFile(OPENAPI_FILE, openApiFileText(document));
process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
