#!/usr/bin/env node
import { main } from './index';

void main(process.argv);
