// LocalObjectStore: S3 buckets as folders of the local file system (--s3-dir DIR; docs/export-import.md).
//
// Bucket b is the folder DIR/b and an object's key is its path relative to that folder ("AWSDynamoDB/<id>/_started"
// is DIR/b/AWSDynamoDB/<id>/_started). A bucket exists when its folder does; the store never makes a bucket, as
// S3 would not. Objects are written atomically: to a temporary file beside the object, then renamed over it, so a
// reader (or a process killed mid-write) sees the whole object or none of it.
//
// Keys and bucket names come from requests: a key or bucket that would leave the bucket's folder ("..", an absolute
// path, an empty segment) is refused with ValidationException, never followed.

#ifndef DYNAPAGE_ENGINE_TRANSFER_LOCAL_OBJECT_STORE_H_
#define DYNAPAGE_ENGINE_TRANSFER_LOCAL_OBJECT_STORE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/status.h"

namespace dynapage {

class LocalObjectStore {
 public:
  // REQUIRES: root is not empty.
  explicit LocalObjectStore(std::string root);

  const std::string& root() const { return root_; }
  // True if bucket's folder exists.
  bool BucketExists(std::string_view bucket) const;
  // The keys of bucket's objects that start with prefix (raw prefix: "data" matches "data2/x"), sorted. Temporary
  // files of unfinished writes are not objects.
  Status ListKeys(std::string_view bucket, std::string_view prefix, std::vector<std::string>* keys) const;
  Status Read(std::string_view bucket, std::string_view key, std::string* contents) const;
  // Writes the object whole or not at all (temporary file, then rename), making the folders its key names.
  Status Write(std::string_view bucket, std::string_view key, std::string_view contents) const;

  // Where an object lives on disk, for error logs and messages. ValidationException for a key or bucket that
  // would leave the bucket's folder.
  Status PathOf(std::string_view bucket, std::string_view key, std::string* path) const;

 private:
  std::string root_;
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_TRANSFER_LOCAL_OBJECT_STORE_H_
