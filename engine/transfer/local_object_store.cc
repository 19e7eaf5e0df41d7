#include "engine/transfer/local_object_store.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "engine/base/check.h"

namespace dynapage {

namespace fs = std::filesystem;

namespace {
// The suffix of a write's temporary file; such files are not objects.
constexpr std::string_view kTemporarySuffix = ".dynapage-partial";

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// True if every '/'-separated segment of path is a plain name (not empty, ".", ".."), so that it stays inside its
// folder.
bool IsPlainRelativePath(std::string_view path) {
  if (path.empty()) return false;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    std::string_view segment = path.substr(start, end - start);
    if (segment.empty() || segment == "." || segment == ".." || segment.find('\0') != std::string_view::npos) {
      return false;
    }
    start = end + 1;
  }
  return true;
}
}  // namespace

LocalObjectStore::LocalObjectStore(std::string root) : root_(std::move(root)) { DP_DCHECK(!root_.empty()); }

bool LocalObjectStore::BucketExists(std::string_view bucket) const {
  if (!IsPlainRelativePath(bucket) || bucket.find('/') != std::string_view::npos) return false;
  std::error_code ec;
  return fs::is_directory(fs::path(root_) / std::string(bucket), ec);
}

Status LocalObjectStore::PathOf(std::string_view bucket, std::string_view key, std::string* path) const {
  if (!IsPlainRelativePath(bucket) || bucket.find('/') != std::string_view::npos) {
    return Status::Validation("Invalid S3 bucket name: " + std::string(bucket));
  }
  if (!IsPlainRelativePath(key)) return Status::Validation("Invalid S3 object key: " + std::string(key));
  *path = (fs::path(root_) / std::string(bucket) / std::string(key)).string();
  return Status::OK();
}

Status LocalObjectStore::ListKeys(std::string_view bucket, std::string_view prefix,
                                  std::vector<std::string>* keys) const {
  keys->clear();
  fs::path folder = fs::path(root_) / std::string(bucket);
  std::error_code ec;
  // The walk is iterative (recursive_directory_iterator keeps its own stack) and does not follow symbolic links.
  for (fs::recursive_directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    std::string key = it->path().lexically_relative(folder).generic_string();
    if (EndsWith(key, kTemporarySuffix)) continue;
    if (key.compare(0, prefix.size(), prefix) == 0) keys->push_back(std::move(key));
  }
  if (ec) return Status::Internal("cannot list bucket folder " + folder.string() + ": " + ec.message());
  std::sort(keys->begin(), keys->end());
  return Status::OK();
}

Status LocalObjectStore::Read(std::string_view bucket, std::string_view key, std::string* contents) const {
  std::string path;
  DP_RETURN_IF_ERROR(PathOf(bucket, key, &path));
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Internal("cannot read " + path);
  contents->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (in.bad()) return Status::Internal("cannot read " + path);
  return Status::OK();
}

Status LocalObjectStore::Write(std::string_view bucket, std::string_view key, std::string_view contents) const {
  static std::atomic<uint64_t> next_temporary{0};
  std::string path;
  DP_RETURN_IF_ERROR(PathOf(bucket, key, &path));
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  if (ec) return Status::Internal("cannot make the folder of " + path + ": " + ec.message());
  std::string temporary = path + "." + std::to_string(next_temporary.fetch_add(1)) + std::string(kTemporarySuffix);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    out.flush();
    if (!out) {
      std::remove(temporary.c_str());
      return Status::Internal("cannot write " + path);
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    return Status::Internal("cannot write " + path);
  }
  return Status::OK();
}

}  // namespace dynapage
