// ExclusiveStartKey (docs/behaviour.md §3): resumption strictly after (or, reversed, strictly before) a key position
// that need not exist, LastEvaluatedKey numbers in canonical form, and every start-key error message of
// §3.2 with the Query and Scan wordings, which differ.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "conformance/environment.h"
#include "conformance/expectations.h"
#include "conformance/page.h"

namespace conformance {
namespace {

// Table (pk S, sk N) with GSI "gsi" (gpk S, gsk N, ALL) and LSI "lsi" (pk, lsk N, KEYS_ONLY).
// Partition "a": sk 1..10, gpk "g", gsk = 10*sk, lsk = 100-sk, tag odd/even. Partition "b": sk 1..3 alike.
// Partition "canon": one item written with sk "1e3".
// A second, hash-only table (pk S) holds k00..k19.
class StartKey : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    IndexSpec gsi{"gsi", true, {"gpk", "S"}, KeyAttribute{"gsk", "N"}, "ALL"};
    IndexSpec lsi{"lsi", false, {"pk", "S"}, KeyAttribute{"lsk", "N"}, "KEYS_ONLY"};
    table_ = new ScopedTable(&Tables(), "esk", TableSpec{{"pk", "S"}, KeyAttribute{"sk", "N"}, {gsi, lsi}});
    std::vector<std::string> items;
    auto add = [&items](const std::string& pk, int sk) {
      items.push_back("{\"pk\":" + AttrS(pk) + ",\"sk\":" + AttrN(sk) + ",\"gpk\":" + AttrS("g") +
                      ",\"gsk\":" + AttrN(10 * sk) + ",\"lsk\":" + AttrN(100 - sk) +
                      ",\"tag\":" + AttrS(sk % 2 ? "odd" : "even") + "}");
    };
    for (int i = 1; i <= 10; ++i) add("a", i);
    for (int i = 1; i <= 3; ++i) add("b", i);
    items.push_back("{\"pk\":" + AttrS("canon") + ",\"sk\":" + AttrN("1e3") + "}");
    table_->Fill(items) && table_->WaitForIndex("gsi", 13);

    hash_only_ = new ScopedTable(&Tables(), "esk-hash", TableSpec{{"pk", "S"}, std::nullopt, {}});
    std::vector<std::string> keys;
    for (int i = 0; i < 20; ++i) keys.push_back("{\"pk\":" + AttrS((i < 10 ? "k0" : "k") + std::to_string(i)) + "}");
    hash_only_->Fill(keys);
  }
  static void TearDownTestSuite() {
    delete table_;
    delete hash_only_;
    table_ = hash_only_ = nullptr;
  }
  void SetUp() override {
    ASSERT_TRUE(table_->ok()) << table_->error();
    ASSERT_TRUE(hash_only_->ok()) << hash_only_->error();
  }

  // Query on table "esk" with `condition` over values :p (= pk) and, when given, :s (= sk_value).
  static Json Query(const std::string& condition, const std::string& pk, const std::string& esk,
                    const std::string& sk_value = "") {
    Json q(R"({"ConsistentRead":true})");
    q.Set("TableName", table_->name()).Set("KeyConditionExpression", condition);
    q.SetRaw("ExpressionAttributeValues",
             "{\":p\":" + AttrS(pk) + (sk_value.empty() ? "" : ",\":s\":" + AttrN(sk_value)) + "}");
    if (!esk.empty()) q.SetRaw("ExclusiveStartKey", esk);
    return q;
  }
  static Json IndexQuery(const std::string& index, const std::string& esk) {
    Json q = index == "gsi" ? Query("gpk = :p", "g", esk) : Query("pk = :p", "a", esk);
    q.Set("IndexName", index);
    if (index == "gsi") q.Remove("ConsistentRead");  // not allowed on a GSI
    return q;
  }
  static Json Scan(const std::string& esk, const std::string& index = "") {
    Json s;
    s.Set("TableName", table_->name());
    if (!index.empty()) s.Set("IndexName", index);
    if (!esk.empty()) s.SetRaw("ExclusiveStartKey", esk);
    return s;
  }

  static ScopedTable* table_;
  static ScopedTable* hash_only_;
};
ScopedTable* StartKey::table_ = nullptr;
ScopedTable* StartKey::hash_only_ = nullptr;

std::string Key(const std::string& pk, const std::string& sk) {
  return "{\"pk\":" + AttrS(pk) + ",\"sk\":" + AttrN(sk) + "}";
}

// ----- resumption ----------------------------------------------------------------------------------------

TEST_F(StartKey, ResumesStrictlyAfterTheKey) {
  Response r = TheClient().Call("Query", Query("pk = :p", "a", Key("a", "4")));
  ASSERT_TRUE(WellFormedPage(r));
  EXPECT_EQ(Column(r, "sk"), (std::vector<std::string>{"5", "6", "7", "8", "9", "10"}));
}

TEST_F(StartKey, ResumesStrictlyBeforeTheKeyWhenReversed) {
  Json q = Query("pk = :p", "a", Key("a", "4"));
  q.SetBool("ScanIndexForward", false);
  Response r = TheClient().Call("Query", q);
  ASSERT_TRUE(WellFormedPage(r));
  EXPECT_EQ(Column(r, "sk"), (std::vector<std::string>{"3", "2", "1"}));
}

TEST_F(StartKey, KeyNeedNotExist) {
  // A position between two items (§3.1: ESK "need not be an existing item").
  Response forward = TheClient().Call("Query", Query("pk = :p", "a", Key("a", "4.5")));
  ASSERT_TRUE(WellFormedPage(forward));
  EXPECT_EQ(Column(forward, "sk"), (std::vector<std::string>{"5", "6", "7", "8", "9", "10"}));

  Json q = Query("pk = :p", "a", Key("a", "4.5"));
  q.SetBool("ScanIndexForward", false);
  Response reversed = TheClient().Call("Query", q);
  ASSERT_TRUE(WellFormedPage(reversed));
  EXPECT_EQ(Column(reversed, "sk"), (std::vector<std::string>{"4", "3", "2", "1"}));

  // Past the end: an empty page without a LEK.
  Response past = TheClient().Call("Query", Query("pk = :p", "a", Key("a", "99")));
  ASSERT_TRUE(WellFormedPage(past));
  EXPECT_EQ(Count(past), 0);
  EXPECT_FALSE(HasLek(past));
}

TEST_F(StartKey, ResumesWithinASortKeyCondition) {
  Json q = Query("pk = :p AND sk BETWEEN :s AND :t", "a", Key("a", "3"), "2");
  q.SetRaw("ExpressionAttributeValues", "{\":p\":" + AttrS("a") + ",\":s\":" + AttrN(2) + ",\":t\":" + AttrN(6) + "}");
  Response r = TheClient().Call("Query", q);
  ASSERT_TRUE(WellFormedPage(r));
  EXPECT_EQ(Column(r, "sk"), (std::vector<std::string>{"4", "5", "6"}));
}

TEST_F(StartKey, StartKeyIsNotCheckedAgainstTheFilter) {
  // sk 4 is "even"; filtering on "odd" must not reject it as a start key (§3.1).
  Json q = Query("pk = :p", "a", Key("a", "4"));
  q.Set("FilterExpression", "tag = :t");
  q.SetRaw("ExpressionAttributeValues", "{\":p\":" + AttrS("a") + ",\":t\":" + AttrS("odd") + "}");
  Response r = TheClient().Call("Query", q);
  ASSERT_TRUE(WellFormedPage(r));
  EXPECT_EQ(Column(r, "sk"), (std::vector<std::string>{"5", "7", "9"}));
}

TEST_F(StartKey, ScanResumesInScanOrder) {
  // Limit 1 pages of a Scan, each resumed from the previous LEK, give the unpaged Scan's sequence.
  Json s = Scan("");
  s.SetBool("ConsistentRead", true);
  Response whole = TheClient().Call("Scan", s);
  ASSERT_TRUE(WellFormedPage(whole));
  s.Set("Limit", 1);
  PagedRead paged = ReadAllPages(TheClient(), "Scan", s, 30);
  ASSERT_EQ(paged.failure, "");
  EXPECT_EQ(paged.Column("pk"), Column(whole, "pk"));
  EXPECT_EQ(paged.Column("sk"), Column(whole, "sk"));
  EXPECT_EQ(paged.TotalCount(), 14);
}

TEST_F(StartKey, LekNumbersAreCanonical) {
  // The item was written with sk "1e3"; DynamoDB normalises numbers on write, so both the item and the LEK
  // say "1000" (§3.1).
  Json q = Query("pk = :p", "canon", "");
  q.Set("Limit", 1);
  Response r = TheClient().Call("Query", q);
  ASSERT_TRUE(WellFormedPage(r));
  EXPECT_EQ(Column(r, "sk"), std::vector<std::string>{"1000"});
  EXPECT_EQ(LekAttr(r, "sk"), "1000") << r.body;
}

// ----- syntactic errors in the start key (checked before the table, §3.2) -----------------------------

struct MalformedValue {
  const char* sk_value;
  const char* message;
};

TEST_F(StartKey, MalformedAttributeValuesInTheStartKey) {
  const MalformedValue cases[] = {
      {R"({})",
       "The provided starting key is invalid: Supplied AttributeValue is empty, must contain exactly one of the "
       "supported datatypes"},
      {R"({"N":"1","S":"x"})",
       "The provided starting key is invalid: Supplied AttributeValue has more than one datatypes set, must "
       "contain exactly one of the supported datatypes"},
      {R"({"NULL":false})",
       "The provided starting key is invalid: One or more parameter values were invalid: Null attribute value "
       "types must have the value of true"},
      {R"({"SS":[]})",
       "The provided starting key is invalid: One or more parameter values were invalid: An string set  may not "
       "be empty"},
      {R"({"BS":[]})",
       "The provided starting key is invalid: One or more parameter values were invalid: Binary sets should not "
       "be empty"},
      // These two and the number error come without the "starting key" prefix.
      {R"({"NS":[]})", "One or more parameter values were invalid: An number set  may not be empty"},
      {R"({"SS":["a","a"]})",
       R"(One or more parameter values were invalid: Input collection ["a", "a"] contains duplicates.)"},
      {R"({"N":"b"})", "The parameter cannot be converted to a numeric value: b"},
  };
  for (const auto& c : cases) {
    const std::string esk = "{\"pk\":" + AttrS("a") + ",\"sk\":" + c.sk_value + "}";
    SCOPED_TRACE(esk);
    EXPECT_TRUE(IsValidation(TheClient().Call("Query", Query("pk = :p", "a", esk)), c.message)) << "Query";
    EXPECT_TRUE(IsValidation(TheClient().Call("Scan", Scan(esk)), c.message)) << "Scan";
  }
}

// ----- semantic errors: Query on the table ---------------------------------------------------------------

TEST_F(StartKey, QueryStartKeyWithWrongAttributeSet) {
  // Missing sort key, and a spurious extra attribute.
  EXPECT_TRUE(IsValidation(TheClient().Call("Query", Query("pk = :p", "a", "{\"pk\":" + AttrS("a") + "}")),
                           "The provided starting key is invalid"));
  EXPECT_TRUE(IsValidation(
      TheClient().Call("Query", Query("pk = :p", "a",
                                      "{\"pk\":" + AttrS("a") + ",\"sk\":" + AttrN(1) + ",\"x\":" + AttrS("y") + "}")),
      "The provided starting key is invalid"));
}

TEST_F(StartKey, QueryStartKeyWithWrongType) {
  EXPECT_TRUE(IsValidation(
      TheClient().Call("Query", Query("pk = :p", "a", "{\"pk\":" + AttrS("a") + ",\"sk\":" + AttrS("1") + "}")),
      "The provided key element does not match the schema"));
}

TEST_F(StartKey, QueryStartKeyInAnotherPartition) {
  EXPECT_TRUE(IsValidation(TheClient().Call("Query", Query("pk = :p", "a", Key("b", "1"))),
                           "The provided starting key is outside query boundaries based on provided conditions"));
}

TEST_F(StartKey, QueryStartKeyOutsideTheSortKeyCondition) {
  EXPECT_TRUE(IsValidation(TheClient().Call("Query", Query("pk = :p AND sk > :s", "a", Key("a", "3"), "5")),
                           "The provided starting key does not match the range key predicate"));
}

TEST_F(StartKey, QueryStartKeyInAnotherPartitionWithASortKeyCondition) {
  // Odd but real (reconfirmed on a GSI in 2025): the sort-key condition holds, the partition differs.
  EXPECT_TRUE(IsValidation(TheClient().Call("Query", Query("pk = :p AND sk > :s", "a", Key("b", "7"), "5")),
                           "The query can return at most one row and cannot be restarted"));
}

TEST_F(StartKey, QueryOnHashOnlyTableRejectsAnyStartKey) {
  // 2025 live text (§3.2, ALT-T test_query_no_sort_key_exclusive_start_key): a hash-only Query returns at
  // most one item, so there is nothing to restart. The key is rendered in DynamoDB's Java map form.
  Json q(R"({"KeyConditionExpression":"pk = :p","ConsistentRead":true})");
  q.Set("TableName", hash_only_->name());
  q.SetRaw("ExpressionAttributeValues", "{\":p\":" + AttrS("k01") + "}");
  q.SetRaw("ExclusiveStartKey", "{\"pk\":" + AttrS("k01") + "}");
  EXPECT_TRUE(IsValidation(TheClient().Call("Query", q),
                           "The provided exclusive start key is invalid: ExclusiveStartKey: "
                           "{pk=AttributeValue: {S:k01}}"));
}

TEST_F(StartKey, KeyValueRulesApplyToTheStartKey) {
  // §3.2 lists these key-value rules as applying to the start key too, but does not pin the words around
  // them: it quotes the empty-key rule after "One or more parameter values were invalid: " (dynalite,
  // circa 2020), while the newer live PutItem text (§9, 2026) reads "One or more parameter values are not
  // valid. " instead, and whether a "starting key is invalid" prefix comes first is not said. So the rule's
  // own text is required and the full message is recorded.
  Response empty =
      TheClient().Call("Query", Query("pk = :p", "a", "{\"pk\":" + AttrS("") + ",\"sk\":" + AttrN(1) + "}"));
  EXPECT_TRUE(ErrorContains(empty, "ValidationException",
                            "The AttributeValue for a key attribute cannot contain an empty string value. Key: pk"));
  Observe("empty partition key in ExclusiveStartKey", empty.message);

  Json s;
  s.Set("TableName", hash_only_->name()).SetRaw("ExclusiveStartKey", "{\"pk\":" + AttrS(std::string(2049, 'k')) + "}");
  Response big = TheClient().Call("Scan", s);
  EXPECT_TRUE(
      ErrorContains(big, "ValidationException", "Size of hashkey has exceeded the maximum size limit of2048 bytes"));
  Observe("2049-byte partition key in ExclusiveStartKey", big.message);
}

// ----- semantic errors: Scan on the table ------------------------------------------------------------------

TEST_F(StartKey, ScanStartKeyErrorsOnTheTable) {
  const char* kMessage = "The provided starting key is invalid: The provided key element does not match the schema";
  EXPECT_TRUE(IsValidation(TheClient().Call("Scan", Scan("{\"pk\":" + AttrS("a") + "}")), kMessage))
      << "missing sort key";
  EXPECT_TRUE(IsValidation(
      TheClient().Call("Scan", Scan("{\"pk\":" + AttrS("a") + ",\"sk\":" + AttrN(1) + ",\"x\":" + AttrS("y") + "}")),
      kMessage))
      << "spurious attribute";
  EXPECT_TRUE(
      IsValidation(TheClient().Call("Scan", Scan("{\"pk\":" + AttrS("a") + ",\"sk\":" + AttrS("1") + "}")), kMessage))
      << "wrong type";
}

// ----- semantic errors: index reads --------------------------------------------------------------------------

std::string GsiKey(const std::string& gsk_attr, const std::string& sk_attr) {
  return "{\"gpk\":" + AttrS("g") + (gsk_attr.empty() ? "" : ",\"gsk\":" + gsk_attr) + ",\"pk\":" + AttrS("a") +
         (sk_attr.empty() ? "" : ",\"sk\":" + sk_attr) + "}";
}

TEST_F(StartKey, IndexStartKeyMissingTheIndexKey) {
  const std::string esk = GsiKey("", AttrN(1));  // no gsk
  EXPECT_TRUE(IsValidation(TheClient().Call("Query", IndexQuery("gsi", esk)), "The provided starting key is invalid"))
      << "Query";
  EXPECT_TRUE(IsValidation(TheClient().Call("Scan", Scan(esk, "gsi")), "The provided starting key is invalid"))
      << "Scan";
  // LSI: {pk, sk} without lsk.
  EXPECT_TRUE(
      IsValidation(TheClient().Call("Query", IndexQuery("lsi", Key("a", "1"))), "The provided starting key is invalid"))
      << "LSI Query";
}

TEST_F(StartKey, IndexStartKeyWithWrongIndexKeyType) {
  const std::string esk = GsiKey(AttrS("10"), AttrN(1));
  EXPECT_TRUE(IsValidation(TheClient().Call("Query", IndexQuery("gsi", esk)),
                           "The provided key element does not match the schema"))
      << "Query";
  EXPECT_TRUE(
      IsValidation(TheClient().Call("Scan", Scan(esk, "gsi")), "The provided key element does not match the schema"))
      << "Scan";
}

TEST_F(StartKey, IndexStartKeyWithWrongOrMissingTableKey) {
  const char* kMessage = "The provided starting key is invalid: The provided key element does not match the schema";
  const std::string wrong_type = GsiKey(AttrN(10), AttrS("1"));
  EXPECT_TRUE(IsValidation(TheClient().Call("Query", IndexQuery("gsi", wrong_type)), kMessage)) << "Query, wrong type";
  EXPECT_TRUE(IsValidation(TheClient().Call("Scan", Scan(wrong_type, "gsi")), kMessage)) << "Scan, wrong type";
  // The table's sort key replaced by another attribute: the count is right, a table key part is missing.
  const std::string missing =
      "{\"gpk\":" + AttrS("g") + ",\"gsk\":" + AttrN(10) + ",\"pk\":" + AttrS("a") + ",\"zz\":" + AttrN(1) + "}";
  EXPECT_TRUE(IsValidation(TheClient().Call("Query", IndexQuery("gsi", missing)), kMessage)) << "Query, missing";
  EXPECT_TRUE(IsValidation(TheClient().Call("Scan", Scan(missing, "gsi")), kMessage)) << "Scan, missing";
}

// ----- other start-key errors ----------------------------------------------------------------------------------

TEST_F(StartKey, ParallelScanStartKeyFromAnotherSegment) {
  // Find an item of some segment of 2, then offer it as the start key of the other segment.
  std::string esk;
  int own = -1;
  for (int segment = 0; segment < 2 && esk.empty(); ++segment) {
    Json s(R"({"TotalSegments":2,"Limit":1,"ConsistentRead":true})");
    s.Set("TableName", hash_only_->name()).Set("Segment", segment);
    Response r = TheClient().Call("Scan", s);
    ASSERT_TRUE(WellFormedPage(r));
    if (HasLek(r)) {
      esk = LekJson(r);
      own = segment;
    }
  }
  ASSERT_FALSE(esk.empty()) << "neither segment of 2 returned an item";
  const int other = 1 - own;
  Json s(R"({"TotalSegments":2})");
  s.Set("TableName", hash_only_->name()).Set("Segment", other).SetRaw("ExclusiveStartKey", esk);
  EXPECT_TRUE(IsValidation(TheClient().Call("Scan", s),
                           "The provided starting key is invalid: Invalid ExclusiveStartKey. Please use "
                           "ExclusiveStartKey with correct Segment. TotalSegments: 2 Segment: " +
                               std::to_string(other)));
}

TEST_F(StartKey, MissingTableIsReportedBeforeKeyValidity) {
  const std::string missing = Tables().UniqueName("absent");
  Json q(R"({"KeyConditionExpression":"pk = :p"})");
  q.Set("TableName", missing).SetRaw("ExpressionAttributeValues", "{\":p\":" + AttrS("a") + "}");
  q.SetRaw("ExclusiveStartKey", "{\"pk\":" + AttrS("a") + ",\"x\":" + AttrS("y") + ",\"z\":" + AttrS("w") + "}");
  EXPECT_TRUE(IsError(TheClient().Call("Query", q), "ResourceNotFoundException", "Requested resource not found"));
  Json s;
  s.Set("TableName", missing).SetRaw("ExclusiveStartKey", "{\"nope\":" + AttrS("a") + "}");
  EXPECT_TRUE(IsError(TheClient().Call("Scan", s), "ResourceNotFoundException", "Requested resource not found"));
}

}  // namespace
}  // namespace conformance
