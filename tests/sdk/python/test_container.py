"""The container image (scripts/docker-test.sh builds it as $DYNAPAGE_IMAGE and runs this file), used as one uses
amazon/dynamodb-local: the default command (in memory, port 8000), DynamoDB Local's command lines, a volume that
keeps data across a container restart, and the image's size, user and start-up time.

Skipped when DYNAPAGE_IMAGE is not set (ctest's sdk_python run): scripts/docker-test.sh is what runs it.
"""

import os
import subprocess
import time
import urllib.request
import uuid

import boto3
import pytest
from botocore.config import Config

IMAGE = os.environ.get("DYNAPAGE_IMAGE")
pytestmark = pytest.mark.skipif(not IMAGE, reason="DYNAPAGE_IMAGE not set: scripts/docker-test.sh runs these")

TABLE = {
    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
    "BillingMode": "PAY_PER_REQUEST",
}


def docker(*args, check=True):
    return subprocess.run(["docker", *args], capture_output=True, text=True, check=check, timeout=120)


class Container:
    def __init__(self, *command, volume=None):
        self.name = f"dynapage-test-{uuid.uuid4().hex[:12]}"
        args = ["run", "-d", "--name", self.name, "-p", "127.0.0.1::8000"]
        if volume:
            args += ["-v", f"{volume}:/home/dynamodblocal/data"]
        self.started = time.monotonic()
        docker(*args, IMAGE, *command)
        self.run_returned = time.monotonic()
        port = docker("port", self.name, "8000/tcp").stdout.split()[0].rsplit(":", 1)[1]
        self.endpoint = f"http://127.0.0.1:{port}"
        self.first_answer_ms = self.wait()

    def wait(self, timeout=20.0):
        """Polls GET / until it answers; returns the milliseconds since `docker run -d` returned."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(self.endpoint + "/", timeout=1) as response:
                    assert response.status == 200
                    return (time.monotonic() - self.run_returned) * 1000
            except OSError:
                if time.monotonic() > deadline:
                    raise AssertionError(f"the container did not answer: {self.logs()}") from None
                time.sleep(0.002)

    def client(self, access_key="AKIDCONTAINER", region="us-east-1"):
        return boto3.client(
            "dynamodb",
            endpoint_url=self.endpoint,
            region_name=region,
            aws_access_key_id=access_key,
            aws_secret_access_key="secret",
            config=Config(retries={"mode": "standard", "max_attempts": 3}),
        )

    def logs(self):
        result = docker("logs", self.name, check=False)
        return result.stdout + result.stderr

    def remove(self):
        docker("rm", "-f", self.name, check=False)


@pytest.fixture
def containers():
    started = []

    def start(*command, volume=None):
        container = Container(*command, volume=volume)
        started.append(container)
        return container

    yield start
    for container in started:
        container.remove()


@pytest.fixture
def volume():
    name = f"dynapage-test-{uuid.uuid4().hex[:12]}"
    docker("volume", "create", name)
    yield name
    docker("volume", "rm", "-f", name, check=False)


def test_image_is_small_and_runs_as_a_non_root_user():
    size = int(docker("image", "inspect", "-f", "{{.Size}}", IMAGE).stdout)
    assert size < 30 * 1024 * 1024, f"the image is {size} bytes"
    user = docker("image", "inspect", "-f", "{{.Config.User}}", IMAGE).stdout.strip()
    assert user.split(":")[0] not in ("", "0", "root"), user


def test_default_command_serves_the_sdk_in_memory_quickly(containers):
    # The best of two starts: the first may pay for loading the image's files into the page cache.
    first = containers()
    second = containers()
    fastest = min(first.first_answer_ms, second.first_answer_ms)
    print(f"first answer {fastest:.0f} ms after `docker run -d` returned")
    assert fastest < 300, (first.first_answer_ms, second.first_answer_ms)
    assert "in memory" in first.logs()

    ddb = first.client()
    ddb.create_table(TableName="smoke", **TABLE)
    ddb.get_waiter("table_exists").wait(TableName="smoke", WaiterConfig={"Delay": 1, "MaxAttempts": 5})
    ddb.put_item(TableName="smoke", Item={"pk": {"S": "a"}, "n": {"N": "1"}})
    ddb.update_item(TableName="smoke", Key={"pk": {"S": "a"}}, UpdateExpression="ADD n :one",
                    ExpressionAttributeValues={":one": {"N": "1"}})
    assert ddb.get_item(TableName="smoke", Key={"pk": {"S": "a"}})["Item"]["n"] == {"N": "2"}
    assert ddb.scan(TableName="smoke")["Count"] == 1
    ddb.batch_write_item(RequestItems={"smoke": [{"PutRequest": {"Item": {"pk": {"S": f"b{i}"}}}} for i in range(5)]})
    assert ddb.query(TableName="smoke", KeyConditionExpression="pk = :p",
                     ExpressionAttributeValues={":p": {"S": "b3"}})["Count"] == 1
    arn = ddb.describe_table(TableName="smoke")["Table"]["TableArn"]
    ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "env", "Value": "ci"}])
    assert ddb.list_tags_of_resource(ResourceArn=arn)["Tags"] == [{"Key": "env", "Value": "ci"}]
    ddb.update_continuous_backups(TableName="smoke",
                                  PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
    described = ddb.describe_continuous_backups(TableName="smoke")["ContinuousBackupsDescription"]
    assert described["PointInTimeRecoveryDescription"]["PointInTimeRecoveryStatus"] == "ENABLED"
    ddb.delete_table(TableName="smoke")
    # In memory: nothing in the data directory, and another access key sees its own tables (DynamoDB Local's default).
    assert ddb.list_tables()["TableNames"] == []
    ddb.create_table(TableName="mine", **TABLE)
    assert first.client(access_key="AKIDOTHER").list_tables()["TableNames"] == []


def test_docker_reports_the_container_healthy(containers):
    # The HEALTHCHECK runs `dynapage --health-check` inside the container (no shell there), every 2 s.
    container = containers()
    deadline = time.monotonic() + 20
    status = ""
    while time.monotonic() < deadline:
        status = docker("inspect", "-f", "{{.State.Health.Status}}", container.name).stdout.strip()
        if status == "healthy":
            break
        time.sleep(0.2)
    assert status == "healthy", docker("inspect", "-f", "{{json .State.Health}}", container.name).stdout


def test_dynamodb_locals_compose_command_keeps_data_in_the_volume_across_a_restart(containers, volume):
    command = ["-jar", "DynamoDBLocal.jar", "-sharedDb", "-dbPath", "./data"]
    first = containers(*command, volume=volume)
    ddb = first.client()
    ddb.create_table(TableName="kept", **TABLE)
    ddb.put_item(TableName="kept", Item={"pk": {"S": "a"}, "v": {"S": "survives"}})
    # -sharedDb: every access key and region sees the same tables.
    assert first.client(access_key="AKIDOTHER", region="eu-west-1").list_tables()["TableNames"] == ["kept"]
    docker("stop", first.name)  # SIGTERM: a clean shutdown
    docker("start", first.name)
    first.endpoint = "http://127.0.0.1:" + docker("port", first.name, "8000/tcp").stdout.split()[0].rsplit(":", 1)[1]
    first.run_returned = time.monotonic()
    first.wait()
    item = first.client().get_item(TableName="kept", Key={"pk": {"S": "a"}})["Item"]
    assert item["v"] == {"S": "survives"}
    first.remove()
    # A new container on the same volume sees the data too.
    second = containers(*command, volume=volume)
    assert second.client().get_item(TableName="kept", Key={"pk": {"S": "a"}})["Item"]["v"] == {"S": "survives"}


def test_dynamodb_locals_flags_and_their_exclusion(containers):
    server = containers("-jar", "DynamoDBLocal.jar", "-inMemory", "-port", "8000", "-delayTransientStatuses")
    ddb = server.client()
    created = ddb.create_table(TableName="slow", **TABLE)["TableDescription"]
    assert created["TableStatus"] == "CREATING"
    ddb.get_waiter("table_exists").wait(TableName="slow", WaiterConfig={"Delay": 1, "MaxAttempts": 10})
    refused = docker("run", "--rm", IMAGE, "-inMemory", "-dbPath", "./data", check=False)
    assert refused.returncode == 2
    assert "-inMemory and -dbPath" in refused.stderr
