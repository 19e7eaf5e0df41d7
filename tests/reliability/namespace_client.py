"""dynapage_client.Client signed as any access key and region: a namespace of its own (docs/dynamodb-local.md)."""

import dynapage_client


def authorization(access_key, region):
    return (f"AWS4-HMAC-SHA256 Credential={access_key}/20240101/{region}/dynamodb/aws4_request, "
            "SignedHeaders=host;x-amz-date;x-amz-target, Signature=0")


class NamespaceClient(dynapage_client.Client):
    def __init__(self, port, access_key, region="us-east-1", timeout=60):
        super().__init__(port, timeout)
        self.authorization = authorization(access_key, region)
