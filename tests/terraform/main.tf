# A table as infrastructure code writes one: keys, a GSI, an LSI, TTL, tags and point-in-time recovery.
# scripts/terraform-test.sh applies it against dynapage, then `terraform plan` must find nothing to change.

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

  tags = {
    team = "dynapage"
    env  = "test"
  }
}

output "arn" {
  value = aws_dynamodb_table.orders.arn
}
