# A table as infrastructure code writes one: keys, a GSI, an LSI, TTL, tags, point-in-time recovery, a stream, the
# table class, encryption with the account's KMS key, on-demand throughput (table and GSI) and deletion protection:
# every attribute of aws_dynamodb_table that works locally (warm_throughput needs provider 6.x; the mirror has 5.x).
# scripts/terraform-test.sh applies it against dynapage, then `terraform plan` must find nothing to change, a second
# apply changes nothing, and it turns deletion protection off before destroying.

terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}

variable "endpoint" {
  type = string
}

variable "deletion_protection" {
  type    = bool
  default = true
}

provider "aws" {
  region                      = "us-west-2"
  access_key                  = "123456789012"
  secret_key                  = "dynapage"
  skip_credentials_validation = true
  skip_metadata_api_check     = true
  skip_requesting_account_id  = true
  skip_region_validation      = true
  endpoints {
    dynamodb = var.endpoint
  }
}

resource "aws_dynamodb_table" "orders" {
  name         = "orders"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "customer"
  range_key    = "order_id"

  attribute {
    name = "customer"
    type = "S"
  }
  attribute {
    name = "order_id"
    type = "S"
  }
  attribute {
    name = "status"
    type = "S"
  }
  attribute {
    name = "placed_at"
    type = "N"
  }

  global_secondary_index {
    name            = "by_status"
    hash_key        = "status"
    range_key       = "placed_at"
    projection_type = "INCLUDE"
    non_key_attributes = ["total"]

    on_demand_throughput {
      max_read_request_units  = 200
      max_write_request_units = 100
    }
  }

  local_secondary_index {
    name            = "by_placed_at"
    range_key       = "placed_at"
    projection_type = "KEYS_ONLY"
  }

  ttl {
    attribute_name = "expires_at"
    enabled        = true
  }

  point_in_time_recovery {
    enabled = true
  }

  stream_enabled   = true
  stream_view_type = "NEW_AND_OLD_IMAGES"

  table_class                 = "STANDARD_INFREQUENT_ACCESS"
  deletion_protection_enabled = var.deletion_protection

  server_side_encryption {
    enabled = true
  }

  on_demand_throughput {
    max_read_request_units  = 1000
    max_write_request_units = 500
  }

  tags = {
    team = "dynapage"
    env  = "test"
  }
}

output "arn" {
  value = aws_dynamodb_table.orders.arn
}
