'use strict';
document.getElementById('status').textContent = 'Scripts ran: ' + new Date().toISOString();
