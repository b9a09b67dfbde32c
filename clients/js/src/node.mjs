// Node only: the advisors of an artifacts directory on disk (FileSystemStore of @zarrita/storage).
import FileSystemStore from "@zarrita/storage/fs";

import { openArtifacts } from "./index.mjs";

export * from "./index.mjs";

/** openArtifacts over the directory `dir` (e.g. "artifacts"). */
export function openDirectory(dir, options = {}) {
  return openArtifacts(new FileSystemStore(dir), options);
}
