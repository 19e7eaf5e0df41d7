// A database under --db-path is its owner's only: the directory 0700, every file in it 0600, whatever the umask.

#include "engine/storage/owner_only_file_system.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "engine/storage/storage.h"

namespace dynapage {
namespace {

mode_t ModeOf(const std::string& path) {
  struct stat st;
  EXPECT_EQ(0, stat(path.c_str(), &st)) << path;
  return st.st_mode & 07777;
}

std::vector<std::string> FilesIn(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = opendir(dir.c_str());
  EXPECT_NE(nullptr, d);
  if (!d) return names;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  closedir(d);
  return names;
}

class OwnerOnlyFileSystemTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/dynapage-owner-only-XXXXXX";
    ASSERT_NE(nullptr, mkdtemp(dir));
    parent_ = dir;
    old_umask_ = umask(0);  // the most permissive umask: RocksDB's own modes (0644, 0755) would show through
  }
  void TearDown() override {
    umask(old_umask_);
    std::system(("rm -rf " + parent_).c_str());
  }

  // Opens a database in path, writes, flushes to a table file, reopens it (a second LOG, a new MANIFEST), and
  // checks every file's mode.
  void ExpectOwnerOnly(const std::string& path) {
    for (int round = 0; round < 2; round++) {
      std::unique_ptr<Storage> storage;
      ASSERT_TRUE(Storage::Open(path, &storage).ok());
      Storage::Batch batch;
      batch.Put("k" + std::to_string(round), "v");
      ASSERT_TRUE(storage->Write(&batch).ok());
      ASSERT_TRUE(storage->Flush().ok());
    }
    EXPECT_EQ(0700u, ModeOf(path));
    std::vector<std::string> files = FilesIn(path);
    EXPECT_GE(files.size(), 6u);  // CURRENT, IDENTITY, LOCK, LOG, MANIFEST-*, OPTIONS-*, *.log, *.sst
    bool has_table = false, has_log = false;
    for (const std::string& name : files) {
      EXPECT_EQ(0600u, ModeOf(path + "/" + name)) << name;
      has_table |= name.find(".sst") != std::string::npos;
      has_log |= name == "LOG";
    }
    EXPECT_TRUE(has_table);
    EXPECT_TRUE(has_log);
  }

  std::string parent_;
  mode_t old_umask_ = 0;
};

TEST_F(OwnerOnlyFileSystemTest, ANewDatabaseIsItsOwnersOnly) { ExpectOwnerOnly(parent_ + "/db"); }

TEST_F(OwnerOnlyFileSystemTest, AnExistingDirectoryIsMadeItsOwnersOnly) {
  const std::string path = parent_ + "/existing";
  ASSERT_EQ(0, mkdir(path.c_str(), 0777));
  ASSERT_EQ(0777u, ModeOf(path));
  ExpectOwnerOnly(path);
}

TEST_F(OwnerOnlyFileSystemTest, AMissingParentIsAnError) {
  std::unique_ptr<Storage> storage;
  Status s = Storage::Open(parent_ + "/missing/db", &storage);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(std::string::npos, s.message().find("cannot"));
}

}  // namespace
}  // namespace dynapage
