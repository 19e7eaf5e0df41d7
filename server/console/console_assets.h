// ConsoleAsset: the console's files (server/console/assets/: HTML, CSS, plain JavaScript), embedded into the
// binary at build time by scripts/embed_assets.cmake, so that dynapage serves its console offline, from any folder,
// with nothing to install (docs/console.md). The generated source defines the table.

#ifndef DYNAPAGE_SERVER_CONSOLE_CONSOLE_ASSETS_H_
#define DYNAPAGE_SERVER_CONSOLE_CONSOLE_ASSETS_H_

#include <cstddef>
#include <string_view>

namespace dynapage {

struct ConsoleAsset {
  std::string_view name;   // the file's name in server/console/assets/ ("console.js")
  std::string_view bytes;  // its content
};

extern const ConsoleAsset kConsoleAssets[];
extern const size_t kConsoleAssetCount;

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_CONSOLE_CONSOLE_ASSETS_H_
