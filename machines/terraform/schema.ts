/**
 * The provider schemas this model knows: which arguments a resource type takes and which ones
 * force a new resource (ForceNew in terraform-provider-aws: changing them cannot be done in
 * place, so the plan says "forces replacement"). `data`: the object holds data that a
 * replacement does not carry over.
 */
export interface TypeSchema {
  attrs: Record<string, { forceNew: boolean }>;
  idPrefix: string | null;
  idFrom?: string;
  uniqueBy?: string;
  holdsData: boolean;
}

export const SCHEMAS: Record<string, TypeSchema> = {
  // internal/service/ec2/vpc_.go: cidr_block ForceNew; tags updatable.
  aws_vpc: { attrs: { cidr_block: { forceNew: true }, tags_name: { forceNew: false } }, idPrefix: 'vpc-', holdsData: false },
  // internal/service/ec2/vpc_subnet.go: vpc_id, cidr_block, availability_zone ForceNew.
  aws_subnet: {
    attrs: {
      vpc_id: { forceNew: true },
      cidr_block: { forceNew: true },
      availability_zone: { forceNew: true },
      tags_name: { forceNew: false },
    },
    idPrefix: 'subnet-',
    holdsData: false,
  },
  // internal/service/ec2/vpc_security_group.go: name, description, vpc_id ForceNew; ingress updatable.
  aws_security_group: {
    attrs: { name: { forceNew: true }, description: { forceNew: true }, vpc_id: { forceNew: true }, ingress_port: { forceNew: false } },
    idPrefix: 'sg-',
    holdsData: false,
  },
  // internal/service/ec2/ec2_instance.go: ami, subnet_id, availability_zone ForceNew; instance_type and tags updated in place.
  aws_instance: {
    attrs: {
      ami: { forceNew: true },
      instance_type: { forceNew: false },
      subnet_id: { forceNew: true },
      vpc_security_group_ids: { forceNew: false },
      tags_name: { forceNew: false },
    },
    idPrefix: 'i-',
    holdsData: false,
  },
  // internal/service/rds/instance.go: identifier, engine, db_subnet_group_name ForceNew; instance_class, allocated_storage in place.
  aws_db_instance: {
    attrs: {
      identifier: { forceNew: true },
      engine: { forceNew: true },
      instance_class: { forceNew: false },
      allocated_storage: { forceNew: false },
      subnet_id: { forceNew: true },
    },
    idPrefix: null,
    idFrom: 'identifier',
    uniqueBy: 'identifier',
    holdsData: true,
  },
  // internal/service/s3/bucket.go: bucket ForceNew (the bucket name is global).
  aws_s3_bucket: {
    attrs: { bucket: { forceNew: true }, tags_name: { forceNew: false } },
    idPrefix: null,
    idFrom: 'bucket',
    uniqueBy: 'bucket',
    holdsData: true,
  },
};

export const RESOURCE_TYPES = Object.keys(SCHEMAS);
