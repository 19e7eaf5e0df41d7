// Tables the suite creates, and the guarantee that it deletes them.
//
// Contract: TableRegistry::Create makes an on-demand (PAY_PER_REQUEST) table named
// dynapage-conformance-<hint>-<random suffix>, waits until DescribeTable shows it and every GSI ACTIVE, and
// remembers it until Delete. DeleteAll deletes whatever is still remembered; the environment calls it after
// the last case, at exit and on SIGINT/SIGTERM, so a failing or interrupted run leaves nothing behind on AWS
// (short of SIGKILL or a crash). ScopedTable ties one table to a C++ scope for per-suite fixtures.
// Not thread-safe; the suite runs cases one at a time.

#ifndef DYNAPAGE_CONFORMANCE_TEST_TABLES_H_
#define DYNAPAGE_CONFORMANCE_TEST_TABLES_H_

#include <optional>
#include <string>
#include <vector>

#include "conformance/client.h"

namespace conformance {

struct KeyAttribute {
  std::string name;
  std::string type;  // "S", "N" or "B"
};

struct IndexSpec {
  std::string name;
  bool global = true;
  KeyAttribute hash;
  std::optional<KeyAttribute> range;
  std::string projection = "ALL";  // ALL or KEYS_ONLY
};

struct TableSpec {
  KeyAttribute hash;
  std::optional<KeyAttribute> range;
  std::vector<IndexSpec> indexes;
};

class TableRegistry {
 public:
  explicit TableRegistry(Client* client);

  // A fresh name with the suite's prefix; used by Create and by cases that need a name no table has.
  std::string UniqueName(const std::string& hint);

  bool Create(const std::string& hint, const TableSpec& spec, std::string* name, std::string* error);
  // Creates a table with exactly `name` (still remembered and deleted like the others).
  bool CreateNamed(const std::string& name, const TableSpec& spec, std::string* error);
  bool Delete(const std::string& name, std::string* error);
  // Best effort; reports each failure on stderr. Safe to call more than once.
  void DeleteAll();

  const std::vector<std::string>& live() const { return live_; }
  Client* client() const { return client_; }
  // Sends the registry's later requests through `client` (the signal handler uses a fresh client, since
  // the interrupted request may hold the old one's locks).
  void set_client(Client* client) { client_ = client; }

 private:
  bool WaitActive(const std::string& name, std::string* error);

  Client* client_;
  std::vector<std::string> live_;
};

// One table for the life of the object.
class ScopedTable {
 public:
  ScopedTable(TableRegistry* registry, const std::string& hint, const TableSpec& spec);
  ~ScopedTable();
  ScopedTable(const ScopedTable&) = delete;
  ScopedTable& operator=(const ScopedTable&) = delete;

  // Writes `items` (WriteItems below); on failure ok() turns false and error() says why.
  bool Fill(const std::vector<std::string>& items);
  // Waits for index propagation (WaitForIndexCount below), with the same error handling.
  bool WaitForIndex(const std::string& index, int expected);

  bool ok() const { return ok_; }
  const std::string& error() const { return error_; }
  const std::string& name() const { return name_; }

 private:
  TableRegistry* registry_;
  std::string name_;
  bool ok_ = false;
  std::string error_;
};

// Writes `items` (each a DynamoDB-JSON item object) with BatchWriteItem, 25 per request, resending
// UnprocessedItems until none are left.
bool WriteItems(Client& client, const std::string& table, const std::vector<std::string>& items, std::string* error);

// Global secondary indexes are updated asynchronously on AWS: waits (up to two minutes) until a Scan of the
// index counts `expected` items. Returns at once with an error when Scan itself fails.
bool WaitForIndexCount(Client& client, const std::string& table, const std::string& index, int expected,
                       std::string* error);

}  // namespace conformance

#endif  // DYNAPAGE_CONFORMANCE_TEST_TABLES_H_
